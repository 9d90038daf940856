"""The keyword peek (issue 30): the cold `sensetree search` reads its first answer from the keyword index
alone, without LanceDB or a model, and a data folder with no index gets no peek and no new file."""

from __future__ import annotations

import json

from engine.datadir import KEYWORDS_FILE
from engine.keyword_peek import keyword_answer
from tests.cli.helpers import indexed_home, run_python

PEEK = """
import json, sys
from engine.keyword_peek import keyword_answer
from engine.retrieval.terms import shared_matcher
hits = keyword_answer(sys.argv[1], "orchard budget")
print(json.dumps({
    "paths": [h.path for h in hits],
    "highlights": [h.highlights for h in hits],
    "modules": sorted(sys.modules),
    "matcher_connection": shared_matcher()._con is not None,
}))
"""


def test_a_peek_answers_from_the_keyword_index_without_loading_lancedb_a_model_or_the_settings(
    tmp_path, sensetree_home
):
    docs = indexed_home(tmp_path, sensetree_home)
    done = run_python("-c", PEEK, str(sensetree_home))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["paths"][0] == str(docs / "a.txt")
    # pydantic: ~0.1 CPU-s of a 1 s budget; pyarrow ~0.04 (only writes and the vectors use Arrow)
    heavy = {"lancedb", "torch", "transformers", "pydantic", "pyarrow"}
    assert {m.split(".")[0] for m in answer["modules"]} & heavy == set()


def test_a_peek_stems_its_snippets_with_the_keyword_index_connection_and_opens_no_other(
    tmp_path, sensetree_home
):
    indexed_home(tmp_path, sensetree_home)
    done = run_python("-c", PEEK, str(sensetree_home))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["highlights"][0]  # the query's words are marked: stemmed ...
    assert answer["matcher_connection"] is False  # ... with the index's connection, handed back after


def test_a_data_folder_without_a_keyword_index_gets_no_peek_and_no_new_file(tmp_path):
    home = tmp_path / "empty"
    home.mkdir()
    assert keyword_answer(home, "orchard") == []
    assert not (home / KEYWORDS_FILE).exists()
