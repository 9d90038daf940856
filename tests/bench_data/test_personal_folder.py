"""The labelled personal folder (bench/personal_folder) is deterministic, varied and labelled truthfully."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from bench.personal_folder import PersonalFolder, build
from bench.personal_folder.queries import content, related, shared


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> PersonalFolder:
    return build(tmp_path_factory.mktemp("seed0"), seed=0, size="small")


def _digest(folder: PersonalFolder) -> dict[str, str]:
    return {p: hashlib.sha256((folder.root / p).read_bytes()).hexdigest() for p in folder.files}


def test_one_seed_gives_the_same_bytes_dates_and_labels(folder: PersonalFolder, tmp_path: Path) -> None:
    again = build(tmp_path, seed=0, size="small")
    assert again.files == folder.files
    assert _digest(again) == _digest(folder)
    assert again.queries == folder.queries
    assert again.garden == folder.garden
    for path in folder.files:
        assert (again.root / path).stat().st_mtime == (folder.root / path).stat().st_mtime


def _names(folder: PersonalFolder) -> set[str]:
    """Capitalised words inside sentences: the people, places, firms and dishes of one person's life."""
    names: set[str] = set()
    for path in folder.files:
        if path.endswith((".md", ".txt")):
            text = (folder.root / path).read_text(encoding="utf-8")
            names |= {w.lower() for w in re.findall(r"(?<=[a-z,] )[A-Z][a-z]{3,}", text)}
    return names


def test_another_seed_is_another_person_with_other_words(folder: PersonalFolder, tmp_path: Path) -> None:
    other = build(tmp_path, seed=1, size="small")
    assert other.person.name != folder.person.name and other.person.city != folder.person.city
    ours, theirs = _names(folder), _names(other)
    assert len(ours & theirs) / len(ours | theirs) < 0.4
    assert {q.text for q in other.queries if q.kind == "meaning"} != {
        q.text for q in folder.queries if q.kind == "meaning"
    }


def test_every_label_names_a_file_that_exists(folder: PersonalFolder) -> None:
    g = folder.garden
    groups = g.exact_duplicates + g.near_duplicates + g.versions + g.series
    named = {p for group in groups for p in group.paths} | set(g.unhelpful_names) | set(g.conventional_names)
    named |= set(g.misplaced) | {q for query in folder.queries for q in query.relevant}
    assert named <= set(folder.files)
    assert all(group.keep in group.paths for group in g.exact_duplicates + g.near_duplicates + g.versions)
    assert all((folder.root / p).is_file() for p in folder.files)


def test_exact_duplicates_are_byte_identical_and_series_members_all_differ(folder: PersonalFolder) -> None:
    digest = _digest(folder)
    for group in folder.garden.exact_duplicates:
        assert len({digest[p] for p in group.paths}) == 1
    for group in folder.garden.near_duplicates + folder.garden.versions + folder.garden.series:
        assert len({digest[p] for p in group.paths}) == len(group.paths)


def test_every_kind_of_query_and_label_is_present_in_the_small_folder(folder: PersonalFolder) -> None:
    kinds = {q.kind for q in folder.queries}
    assert kinds == {"keyword", "known_item", "topic", "meaning", "nonsense"}
    g = folder.garden
    assert all(
        (
            g.exact_duplicates,
            g.near_duplicates,
            g.versions,
            g.series,
            g.unhelpful_names,
            g.conventional_names,
            g.misplaced,
        )
    )
    assert 60 <= len(folder.files) <= 100


def test_meaning_queries_share_no_content_word_with_any_right_answer(folder: PersonalFolder) -> None:
    from bench.personal_folder import plan

    built, _ = plan(0, "small")
    for query in (q for q in folder.queries if q.kind == "meaning"):
        assert query.relevant
        for path in query.relevant:
            assert not shared(query.text, built.entries[path]), (query.text, path)


def test_the_word_check_sees_stems_and_shared_roots() -> None:
    assert content("The Holidays were relaxing") == {"holiday", "relax"}
    assert related("rent", "rental") and related("medical", "medicine") and not related("cat", "catalogue")


def test_the_labels_were_computed_from_the_text_the_product_extracts(folder: PersonalFolder) -> None:
    from bench.personal_folder import plan
    from bench.personal_folder.queries import words
    from engine.indexing.extract import extract

    built, _ = plan(0, "small")
    one_per_kind = {(path.rsplit("/", 1)[0], path.rsplit(".", 1)[-1]): path for path in folder.files}
    for path in sorted(one_per_kind.values()):
        extracted = extract(str(folder.root / path))
        assert words(extracted.text) == words(built.entries[path].text or ""), path


def test_misplaced_and_topic_labels_name_folders_that_exist(folder: PersonalFolder) -> None:
    folders = {path.rsplit("/", 1)[0] for path in folder.files}
    assert set(folder.garden.misplaced.values()) <= folders
    assert all(path.rsplit("/", 1)[0] != home for path, home in folder.garden.misplaced.items())
    for query in (q for q in folder.queries if q.kind == "topic"):
        assert query.folder in folders or any(f.startswith(f"{query.folder}/") for f in folders)
        assert all(path.startswith(f"{query.folder}/") for path in query.relevant)


def test_no_name_is_both_conventional_and_unhelpful(folder: PersonalFolder) -> None:
    assert not folder.garden.conventional_names & folder.garden.unhelpful_names
    assert all(not q.relevant for q in folder.queries if q.kind == "nonsense")
    assert all(q.relevant for q in folder.queries if q.kind != "nonsense")


def test_some_keyword_query_is_answered_by_a_file_that_has_only_a_name(folder: PersonalFolder) -> None:
    from bench.personal_folder import plan

    built, _ = plan(0, "small")
    nameless = {path for path, entry in built.entries.items() if entry.text is None}
    assert any(q.relevant & nameless for q in folder.queries if q.kind == "keyword")
