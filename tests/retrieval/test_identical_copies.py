"""Identical copies take one search row, which names the others (issue 28): a recipe and its download in
Downloads/ are one result, the best-ranked copy's; files that merely share a name stay apart, and an
empty file or one with no hash yet never collapses."""

from __future__ import annotations

import os

from engine.retrieval.copies import one_per_content

CURRY = "Thai green curry: coconut milk, green curry paste, chicken, bamboo shoots, basil.\n"


def _indexed(engine, tmp_path, files: dict[str, str]) -> str:
    root = tmp_path / "Home"
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    return os.path.realpath(root)


def _rows(engine, root: str, query: str, limit: int = 10) -> list[tuple[str, list[str]]]:
    return [
        (os.path.relpath(r.path, root), [os.path.relpath(c, root) for c in r.copies])
        for r in engine.semantic_search(query, limit=limit)
    ]


def test_two_identical_copies_are_one_result_that_names_the_other(engine, tmp_path):
    root = _indexed(
        engine,
        tmp_path,
        {
            "Recipes/thai-green-curry.md": CURRY,
            "Downloads/thai-green-curry (1).md": CURRY,
            "Recipes/red-curry.md": "Thai red curry: red curry paste, coconut milk, beef, lime leaves.\n",
        },
    )
    rows = _rows(engine, root, "green curry coconut")
    paths = [path for path, _ in rows]
    assert sum("thai-green-curry" in path for path in paths) == 1  # one row for the one content
    row = next(r for r in rows if "thai-green-curry" in r[0])  # the better-ranked copy (names are embedded)
    other = ({"Recipes/thai-green-curry.md", "Downloads/thai-green-curry (1).md"} - {row[0]}).pop()
    assert row[1] == [other]
    assert "Recipes/red-curry.md" in paths and dict(rows)["Recipes/red-curry.md"] == []


def test_the_limit_counts_rows_after_copies_collapse(engine, tmp_path):
    root = _indexed(
        engine,
        tmp_path,
        {
            "Recipes/thai-green-curry.md": CURRY,
            "Downloads/thai-green-curry (1).md": CURRY,
            "Recipes/red-curry.md": "Thai red curry: red curry paste, coconut milk, beef.\n",
            "Recipes/yellow-curry.md": "Yellow curry: turmeric, coconut milk, potatoes.\n",
        },
    )
    assert len(_rows(engine, root, "curry coconut milk", limit=3)) == 3


def test_the_meaning_map_places_every_identical_copy_where_it_lies(engine, tmp_path):
    root = _indexed(engine, tmp_path, {"Recipes/thai-green-curry.md": CURRY, "Downloads/curry.md": CURRY})
    tree = engine.semantic_tree("green curry coconut")
    folders = {child.name: [leaf.name for leaf in child.children] for child in tree.children}
    assert folders == {"Recipes": ["thai-green-curry.md"], "Downloads": ["curry.md"]}
    assert tree.path == root


def test_same_named_files_with_different_content_stay_two_results(engine, tmp_path):
    root = _indexed(
        engine,
        tmp_path,
        {
            "Work/notes.md": "Standup notes: the release slipped a week.\n",
            "Garden/notes.md": "Garden notes: tomatoes need staking.\n",
        },
    )
    assert sorted(_rows(engine, root, "notes")) == [("Garden/notes.md", []), ("Work/notes.md", [])]


def test_empty_files_and_files_without_a_hash_never_collapse(engine, tmp_path):
    root = _indexed(engine, tmp_path, {"a/todo-empty.txt": "", "b/todo-empty.txt": ""})
    catalog = engine.parts.index.catalog
    assert catalog.identical_copies([os.path.join(root, "a/todo-empty.txt")]) == {}
    root2 = _indexed(engine, tmp_path / "more", {"x/same.txt": CURRY, "y/same.txt": CURRY})
    x, y = os.path.join(root2, "x/same.txt"), os.path.join(root2, "y/same.txt")
    assert catalog.identical_copies([x]) == {x: [y]}
    catalog.forget_hash(y)
    assert catalog.identical_copies([x, y]) == {}


def _ranked(*paths: str) -> list[tuple[tuple[str, int], float]]:
    return [((path, 0), 1.0 - i / 100) for i, path in enumerate(paths)]


def test_the_best_ranked_copy_is_the_row_and_the_next_file_fills_the_freed_row():
    groups = [{"/r/Downloads/a (1).md", "/r/Recipes/a.md"}]
    asked: list[list[str]] = []

    def copies_of(paths: list[str]) -> dict[str, list[str]]:
        asked.append(paths)
        return {p: sorted(g - {p}) for p in paths for g in groups if p in g}

    ranked = _ranked("/r/Downloads/a (1).md", "/r/Recipes/a.md", "/r/b.md", "/r/c.md")
    best, copies = one_per_content(ranked, 2, lambda path: True, copies_of)
    assert list(best) == ["/r/Downloads/a (1).md", "/r/b.md"]
    assert copies == {"/r/Downloads/a (1).md": ["/r/Recipes/a.md"], "/r/b.md": []}
    assert asked == [["/r/Downloads/a (1).md", "/r/Recipes/a.md"], ["/r/b.md"]]  # only what fills the page


def test_a_copy_already_named_by_a_row_is_skipped_without_asking_again():
    asked: list[list[str]] = []
    three = ["/r/a.md", "/r/Downloads/a (1).md", "/r/z/a.md"]

    def copies_of(paths: list[str]) -> dict[str, list[str]]:
        asked.append(paths)
        return {p: [c for c in three if c != p] for p in paths if p in three}

    ranked = _ranked("/r/a.md", "/r/Downloads/a (1).md", "/r/z/a.md", "/r/b.md", "/r/c.md")
    best, copies = one_per_content(ranked, 2, lambda p: True, copies_of)
    assert list(best) == ["/r/a.md", "/r/b.md"]
    assert copies["/r/a.md"] == ["/r/Downloads/a (1).md", "/r/z/a.md"]
    assert asked == [["/r/a.md", "/r/Downloads/a (1).md"], ["/r/b.md"]]  # z/a.md: known to be a copy


def test_on_a_tie_the_filed_copy_is_the_row_and_a_better_ranked_download_stays_the_row():
    def copies_of(paths: list[str]) -> dict[str, list[str]]:
        pairs = {"/r/Downloads/a.md": ["/r/Recipes/a.md"], "/r/Recipes/a.md": ["/r/Downloads/a.md"]}
        return {p: pairs[p] for p in paths if p in pairs}

    tied = [(("/r/Downloads/a.md", 0), 0.5), (("/r/Recipes/a.md", 0), 0.4999999), (("/r/b.md", 2), 0.4)]
    best, copies = one_per_content(tied, 2, lambda path: True, copies_of)
    assert best == {"/r/Recipes/a.md": (0, 0.4999999), "/r/b.md": (2, 0.4)}  # equal as shown (6 places)
    assert copies["/r/Recipes/a.md"] == ["/r/Downloads/a.md"]
    lifted = [(("/r/Downloads/a.md", 0), 0.6), (("/r/Recipes/a.md", 0), 0.5), (("/r/b.md", 2), 0.4)]
    best, copies = one_per_content(lifted, 2, lambda path: True, copies_of)
    assert list(best) == ["/r/Downloads/a.md", "/r/b.md"] and copies["/r/Downloads/a.md"] == [
        "/r/Recipes/a.md"
    ]
