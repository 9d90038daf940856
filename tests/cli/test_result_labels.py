"""`sensetree search` and `sensetree map` tell things apart: a result shows its name and the folder it is
in (two files of one name are two different lines), a folder of the map says it is a folder and what it
holds, and a one-word folder topic puts that folder first because names are evidence (issue 28)."""

from __future__ import annotations

import json
import os

import pytest

import app


def _indexed(tmp_path, sensetree_home, embedding=None):
    docs = tmp_path / "Docs"
    for folder, text in (
        ("Work", "Standup notes: the release slipped a week."),
        ("Garden", "Tomatoes need staking."),
    ):
        (docs / folder).mkdir(parents=True)
        (docs / folder / "notes.md").write_text(text + "\n")
    (docs / "Recipes").mkdir()
    (docs / "Recipes" / "leek-soup.md").write_text("Leeks, potatoes, stock; simmer twenty minutes.\n")
    (docs / "Recipes" / "flatbread.md").write_text("Flour, water, salt; a hot pan.\n")
    (docs / "Letters").mkdir()
    (docs / "Letters" / "aunt.md").write_text("Thank you for the recipe book, I tried the soup.\n")
    settings = (
        {"embedding": {"model": "hashing-384"}}
        if embedding is None
        else {"indexing": {"qualify_with_model": False}}
    )
    (sensetree_home / "settings.json").write_text(json.dumps(settings))
    assert app.main(["index", str(docs)]) == 0
    return os.path.realpath(docs)


def test_same_named_results_show_the_folders_that_tell_them_apart(tmp_path, sensetree_home, capsys):
    docs = _indexed(tmp_path, sensetree_home)
    capsys.readouterr()
    assert app.main(["search", "notes", "--scope", docs]) == 0
    out = capsys.readouterr().out.split("Ranked by meaning and keywords:\n")[-1].splitlines()  # fused list
    labels = [line.split("  ", 1)[1] for line in out if line[:3].strip().rstrip(".").isdigit()]
    assert sorted(label for label in labels if label.startswith("notes.md")) == [
        f"notes.md  (in {docs}/Garden/)",
        f"notes.md  (in {docs}/Work/)",
    ]


def test_identical_copies_are_one_result_line_that_says_where_the_other_copy_is(
    tmp_path, sensetree_home, capsys
):
    docs = _indexed(tmp_path, sensetree_home)
    (tmp_path / "Docs" / "Downloads").mkdir()
    copy = tmp_path / "Docs" / "Downloads" / "leek-soup.md"
    copy.write_text((tmp_path / "Docs" / "Recipes" / "leek-soup.md").read_text())
    assert app.main(["index", str(tmp_path / "Docs")]) == 0
    capsys.readouterr()
    assert app.main(["search", "leeks potatoes", "--scope", docs]) == 0
    out = capsys.readouterr().out.split("Ranked by meaning and keywords:\n")[-1].splitlines()
    rows = [i for i, line in enumerate(out) if "leek-soup.md  (in " in line]
    assert len(rows) == 1  # one line for the one content: the filed copy's
    assert out[rows[0]].endswith(f"leek-soup.md  (in {docs}/Recipes/)")
    assert out[rows[0] + 1] == f"      also in: {docs}/Downloads/leek-soup.md"


@pytest.mark.model
def test_a_one_word_folder_topic_maps_that_folder_first_and_labels_folders(tmp_path, sensetree_home, capsys):
    # the product's model: with it a folder's name is evidence by meaning too (folder_names.py), beside the
    # name field at NAME_WEIGHT (the only path evidence another embedder gets, where "recipe" in a letter
    # may come first since NAME_WEIGHT was calibrated on both folder sizes, 0.5 -> 0.25)
    docs = _indexed(tmp_path, sensetree_home, embedding="product")
    capsys.readouterr()
    assert app.main(["map", "recipes", "--scope", docs]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("[folder, 2 matching files] Recipes/")


def test_a_search_that_matched_words_only_says_so_under_its_results(sensetree_home):
    """Issue 31, item 1: while the vectors are rebuilt or the embedding model fails, search answers from the
    keyword index, and the terminal says that the results match words only."""
    import argparse
    import io

    from cli import search
    from cli.context import Context
    from engine.retrieval.results import SearchResult

    class NothingToClose:
        def close(self) -> None:
            pass

    class KeywordOnlyEngine:
        running = NothingToClose()

        def semantic_search(self, **_kwargs):
            return [SearchResult("/d/bread.txt", "bread.txt", 0.9, "flour", 0, [], "keyword-only")]

    out = io.StringIO()
    context = Context(build_engine=KeywordOnlyEngine, home=lambda: sensetree_home)
    args = argparse.Namespace(query="flour", limit=10, scope=None, json=False)
    assert search.run(args, context, out) == 0
    assert out.getvalue().splitlines()[-1] == search.KEYWORD_ONLY
