"""Any damage to the data folder leaves an app that starts and searches (issue 31, N1 and N12)."""

from __future__ import annotations

import random
import shutil

import pytest

from engine.embed import HashingEmbedder
from engine.errors import StoreError
from engine.retrieval.vectors import VectorIndex
from engine.stores import open_vectors
from tests.indexing.helpers import indexed_sample, make_engine
from tests.store_damage import (
    QUERY,
    TRAVEL,
    all_cases,
    build_home,
    garble_third,
    newest_manifest,
    run_case,
    sample,
)

FUZZ_CASES = 12  # of ~190 (every file × truncate, garble, zero, delete); bench/store_fuzz.py runs them all


class PanicException(BaseException):
    """Stands for pyo3's panic, which derives from BaseException, not Exception."""


def test_a_garbled_newest_manifest_sets_the_vectors_aside_and_search_answers_by_keyword(tmp_path):
    """The exact damage of N1: a third of the newest LanceDB manifest overwritten with random bytes gave a
    Rust panic on every launch for some seeds (6 of these 10 before the fix) and a dead start."""
    root, engine = indexed_sample(tmp_path, tmp_path / "pristine")
    engine.running.close()
    for seed in range(10):
        home = tmp_path / f"home-{seed}"
        shutil.copytree(tmp_path / "pristine", home)
        garble_third(newest_manifest(home), random.Random(seed))
        restarted = make_engine(home)
        try:
            assert any("search index was damaged" in n for n in restarted.get_config().notices)
            first = restarted.semantic_search(QUERY)  # before anything is embedded again: keywords answer
            assert first[0].path == str(root / TRAVEL) and first[0].semantic == "pending"
            restarted.parts.index.drain()
            healed = restarted.semantic_search(QUERY)
            assert healed[0].path == str(root / TRAVEL) and healed[0].semantic == "done"
        finally:
            restarted.running.close()


def test_a_rust_panic_while_opening_the_vectors_is_handled_like_damage(tmp_path, sensetree_home, monkeypatch):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    probe = VectorIndex.probe
    calls = []

    def panicking_once(self):
        calls.append(self.directory)
        if len(calls) == 1:
            raise PanicException("range end index 398040896 out of range for slice of length 704")
        return probe(self)

    monkeypatch.setattr(VectorIndex, "probe", panicking_once)
    restarted = make_engine(sensetree_home)
    try:
        notices = restarted.get_config().notices
        assert any("PanicException: range end index" in n for n in notices), notices
        assert restarted.semantic_search(QUERY)[0].path == str(root / TRAVEL)
    finally:
        restarted.running.close()


def test_a_ctrl_c_while_opening_the_vectors_is_not_taken_for_damage(tmp_path, sensetree_home, monkeypatch):
    indexed_sample(tmp_path, sensetree_home)[1].running.close()

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(VectorIndex, "probe", interrupted)
    [table] = (sensetree_home / "vectors").glob("hashing-*")
    with pytest.raises(KeyboardInterrupt):
        open_vectors(table, HashingEmbedder().dim)
    assert not list((sensetree_home / "vectors").glob("*.corrupt-*"))


def test_search_answers_by_keyword_when_the_vector_store_fails_at_search_time(
    tmp_path, sensetree_home, monkeypatch
):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    try:

        def failing(*args, **kwargs):
            raise StoreError("Could not search the vector index: lance error: Encountered corrupt file")

        monkeypatch.setattr(engine.parts.vectors, "start_search", failing)
        assert engine.semantic_search(QUERY)[0].path == str(root / TRAVEL)
    finally:
        engine.running.close()


def test_a_damaged_old_manifest_no_longer_fails_every_maintenance_run(tmp_path):
    home, root = build_home(tmp_path)
    [older, *_] = sorted((home / "vectors").rglob("_versions/*.manifest"), key=lambda p: p.name)[1:]
    older.write_bytes(bytes(older.stat().st_size))
    engine = make_engine(home)
    try:
        engine.parts.index.maintenance()
        assert list((home / "vectors").glob("*.corrupt-*-history"))
        engine.parts.index.maintenance()
        assert engine.semantic_search(QUERY)[0].path == str(root / TRAVEL)
    finally:
        engine.running.close()


def test_a_deleted_catalog_has_the_folders_scanned_again(tmp_path):
    home, root = build_home(tmp_path)
    (home / "sensetree.db").unlink()
    engine = make_engine(home)
    try:
        engine.parts.index.drain()
        assert engine.semantic_search(QUERY)[0].path == str(root / TRAVEL)
    finally:
        engine.running.close()


def test_every_file_of_the_data_folder_truncated_garbled_zeroed_or_deleted_still_starts_and_searches(
    tmp_path,
):
    """A seeded sample of the cases (bench/store_fuzz.py runs all of them, each in a child process)."""
    home, root = build_home(tmp_path / "base")
    cases = sample(all_cases(home), FUZZ_CASES, seed=31)
    problems = {case: run_case(home, tmp_path / "w", root, case) for case in cases}
    assert {case: problem for case, problem in problems.items() if problem} == {}
