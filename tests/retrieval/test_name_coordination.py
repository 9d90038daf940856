"""A name that holds one word of a several-word query lifts its file only in proportion (issue 28): the
name field answers "kyoto" with kyoto-bamboo.png, but "transferring records between systems" is not
answered by vaccination-record.pdf, which the dense arm finds unrelated, above the data-migration note
it finds related (bench/meaning_misses.py found this on the held-out personal folders)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.retrieval.coordination import NAME_COORDINATION, coordinated_names
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.terms import shared_matcher
from tests.retrieval.helpers import filled_stores

QUERY = "transferring records between systems"
RECORD = "/r/Health/vaccination-record.txt"
MIGRATION = "/r/Work/2024-08-04-data-migration.md"
TEXTS = {
    RECORD: ["Tetanus booster given in May 2021; hepatitis B course complete."],
    MIGRATION: ["Moving the customer database from the old CRM to the new platform over one weekend."],
    "/r/Recipes/leek-soup.md": ["Leeks, potatoes and stock; simmer twenty minutes, blend."],
}


class MeaningEmbedder:
    """A fake model: the migration note means the query (cosine 0.23), the vaccination record a little
    (0.2), the soup nothing."""

    name = "meaning-fake"
    dim = 3

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 3), dtype=np.float32)
        for row, text in enumerate(texts):
            if text == QUERY:
                out[row] = (1.0, 0.0, 0.0)
            elif "customer database" in text:
                out[row] = (0.23, 0.973, 0.0)
            elif "Tetanus" in text:
                out[row] = (0.2, 0.0, 0.98)
            else:
                out[row] = (0.0, 0.0, 1.0)
        return out


def ranked_files(tmp_path, name_coordination: float = NAME_COORDINATION) -> list[str]:
    embedder = MeaningEmbedder()
    keywords, vectors = filled_stores(tmp_path, TEXTS, embedder)  # type: ignore[arg-type]
    search = HybridSearch(
        keywords,
        vectors,
        embedder,  # type: ignore[arg-type]
        exists=lambda _path: True,
        floor=0.0,  # the order is this rule's; what is shown is the floor's (relevance.py)
        name_coordination=name_coordination,
    )
    files: list[str] = []
    for (path, _), _ in search.fused(QUERY, None, 50):
        if path not in files:
            files.append(path)
    keywords.close()
    return files


def test_the_file_the_dense_arm_finds_ranks_above_a_file_whose_name_holds_one_query_word(tmp_path):
    assert ranked_files(tmp_path)[0] == MIGRATION  # the product's calibrated power


def test_without_name_coordination_the_partial_name_buries_the_meaning(tmp_path):
    assert ranked_files(tmp_path, name_coordination=0.0)[0] == RECORD  # what the held-out folders showed


def test_a_name_holding_the_whole_query_or_a_one_word_query_keeps_its_score():
    terms = shared_matcher().query_terms(QUERY)
    names = {RECORD: 1 / 3, "/r/Work/records-system-transfer.md": 1.0}
    lifted = coordinated_names(names, terms, power=2.0)
    assert lifted[RECORD] == pytest.approx(1 / 27)
    assert lifted["/r/Work/records-system-transfer.md"] == 1.0
    one = shared_matcher().query_terms("kyoto")
    assert coordinated_names({"/r/kyoto-bamboo.png": 0.8}, one, power=2.0) == {"/r/kyoto-bamboo.png": 0.8}
    assert coordinated_names(names, terms, power=0.0) == names
