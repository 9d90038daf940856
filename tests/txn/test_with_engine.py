"""The action system over the real index (SQLite catalog, DuckDB keywords, LanceDB vectors):
moves cost zero embeddings, failures and undo leave the index as it was, requalify is real in search."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.embed import HashingEmbedder
from engine.indexing.progress import ProgressPublisher
from engine.indexing.queue import DELETION
from engine.txn import MIGRATIONS, FaultPoint, TxnService
from tests.txn.txn_support import MIXED_FILES, mixed_plan, snapshot, write_tree


@pytest.fixture
def indexed(tmp_path, sensetree_home):
    engine_mod = pytest.importorskip("engine.engine")
    root = tmp_path / "Docs"
    write_tree(root, MIXED_FILES)
    engine = engine_mod.Engine(sensetree_home, embedder=HashingEmbedder())
    engine.parts.db.migrate(MIGRATIONS)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    yield engine, root
    engine.running.close()


def service_for(engine: Any, fault=None) -> TxnService:
    return TxnService(
        engine.parts.db, engine.running.home, engine.running.roots, engine.parts.indexer, None, fault=fault
    )


def index_state(engine: Any) -> dict[str, Any]:
    return {
        "catalog": sorted(engine.parts.indexer.catalog.all_paths()),
        "senses": {p: engine.parts.indexer.sense_of(p) for p in engine.parts.indexer.catalog.all_paths()},
        "keywords": engine.parts.keywords.chunk_counts(),
        "vectors": engine.parts.vectors.chunk_counts(),
    }


def found(engine: Any, query: str) -> list[str]:
    return [hit.path for hit in engine.semantic_search(query, limit=10)]


def test_commit_moves_index_rows_with_zero_embeddings_and_requalify_is_real_in_search(indexed):
    engine, root = indexed
    embedded = engine.parts.embedder.embedded
    service = service_for(engine)
    plan = service.propose_plan("Tidy up", mixed_plan(root))
    assert service.apply_action_plan(plan["transaction_id"]).applied == 7
    assert engine.parts.embedder.embedded == embedded  # moves, renames and deletes never embed
    assert f"{root}/Finance/2024/Q1/bolt.txt" in found(engine, "Invoice Bolt EUR")
    assert f"{root}/Media/photos/cat.txt" in found(engine, "a cat")
    assert not any("/old/" in p for p in engine.parts.indexer.catalog.all_paths())
    engine.parts.index.drain()  # the requalified file is re-extracted and re-embedded with the pinned sense
    assert engine.parts.embedder.embedded > embedded
    assert found(engine, "ACME invoice 42 requalified")[0] == f"{root}/Finance/acme.txt"
    engine.reindex_path(f"{root}/Finance/acme.txt")
    engine.parts.index.drain()
    assert engine.parts.indexer.sense_of(f"{root}/Finance/acme.txt") == ("[invoice] ACME invoice 42", True)


def test_failure_at_every_point_leaves_the_real_index_unchanged(indexed):
    engine, root = indexed
    before, index_before = snapshot(root), index_state(engine)
    embedded = engine.parts.embedder.embedded
    seen: list[FaultPoint] = []
    service_for(engine, fault=seen.append).propose_plan("probe", mixed_plan(root))
    k = 1
    while True:
        points: list[FaultPoint] = []

        def fail(point: FaultPoint, k: int = k, points: list[FaultPoint] = points) -> None:
            points.append(point)
            if len(points) == k:
                raise RuntimeError(f"injected at {k}")

        service = service_for(engine, fault=fail)
        plan = service.propose_plan("Tidy up", mixed_plan(root))
        result = service.apply_action_plan(plan["transaction_id"])
        if result.applied:
            break
        assert snapshot(root) == before, k
        engine.parts.index.drain()
        assert index_state(engine) == index_before, (k, points[-1])
        # a failure after phase 2 dropped old/draft.txt's rows re-embeds that one restored file; nothing else
        allowed = 0 if points[-1].phase == "disk" else 1
        assert engine.parts.embedder.embedded - embedded <= allowed, (k, points[-1])
        embedded = engine.parts.embedder.embedded
        k += 1
    assert k > 25


def test_apply_then_undo_restores_the_real_index_without_embedding(indexed):
    engine, root = indexed
    before, index_before = snapshot(root), index_state(engine)
    embedded = engine.parts.embedder.embedded
    ops = [op for op in mixed_plan(root) if op["kind"] not in ("delete", "requalify")]
    service = service_for(engine)
    plan = service.propose_plan("Moves only", ops)
    service.apply_action_plan(plan["transaction_id"])
    assert service.undo_transaction(plan["transaction_id"]).applied == len(ops)
    engine.parts.index.drain()
    assert snapshot(root) == before and index_state(engine) == index_before
    assert engine.parts.embedder.embedded == embedded
    assert f"{root}/invoice-bolt.txt" in found(engine, "Invoice Bolt EUR")


def test_undo_of_a_delete_and_requalify_reindexes_the_restored_files(indexed):
    engine, root = indexed
    index_before = index_state(engine)
    service = service_for(engine)
    plan = service.propose_plan("Tidy up", mixed_plan(root))
    service.apply_action_plan(plan["transaction_id"])
    engine.parts.index.drain()
    service.undo_transaction(plan["transaction_id"])
    engine.parts.index.drain()
    assert index_state(engine) == index_before
    assert Path(root / "old/draft.txt").exists() and f"{root}/old/draft.txt" in found(
        engine, "old draft nobody"
    )


def test_the_file_count_is_whole_again_the_moment_an_undo_returns_before_any_file_is_read_again(indexed):
    """The sidebar read 173 of 174 files after an undo: a file back from the trash was only queued, and
    `files` counts catalogued files. The engine's worker is not running here, so nothing is read again
    between the undo and the count: the count must not wait for it."""
    engine, root = indexed
    files = engine.indexing_stats().files
    service = service_for(engine)
    plan = service.propose_plan("Tidy up", mixed_plan(root))
    service.apply_action_plan(plan["transaction_id"])
    assert engine.indexing_stats().files == files - 1  # old/draft.txt went to the trash
    service.undo_transaction(plan["transaction_id"])
    assert engine.indexing_stats().files == files
    engine.parts.index.drain()
    assert engine.indexing_stats().files == files
    assert f"{root}/old/draft.txt" in found(engine, "old draft nobody")


def test_a_deletion_still_queued_for_a_path_the_undo_fills_again_does_not_forget_the_file_there(indexed):
    """inotify reports a move into a folder the plan just made as a deletion of the old path (the new
    folder is not watched yet), and the worker waits while a plan runs: when the undo puts the file back
    before the worker reaches that job, the job must not drop the file that is there again."""
    engine, root = indexed
    files = engine.indexing_stats().files
    service = service_for(engine)
    plan = service.propose_plan(
        "Moves only", [op for op in mixed_plan(root) if op["kind"] in ("mkdir", "move")]
    )
    service.apply_action_plan(plan["transaction_id"])
    engine.parts.indexer.queue.push(
        f"{root}/invoice-acme.txt", DELETION, action="delete"
    )  # the watcher's report
    service.undo_transaction(plan["transaction_id"])
    engine.parts.index.drain()
    assert engine.indexing_stats().files == files
    assert f"{root}/invoice-acme.txt" in found(engine, "Invoice 42 ACME")


def test_the_last_progress_the_page_hears_from_an_undo_is_measured_after_its_index_sync(indexed):
    """The page reads counts from `indexing-progress` events. A send measured in the middle of the undo's
    index sync (the file back from the trash not yet catalogued) said 5 of 6 files, and with the worker
    idle nothing followed it. The publisher's clock stands still here and its trailing sends run when
    the test says: the quiet interval ends just as the undo queues that file."""
    engine, root = indexed
    files = engine.indexing_stats().files
    plan = engine.parts.txn.propose_plan("Tidy up", mixed_plan(root))
    engine.apply_action_plan(plan["transaction_id"])
    heard: list[int] = []
    trailing: list[Callable[[], None]] = []

    def send_trailing() -> None:
        while trailing:
            trailing.pop(0)()

    engine.parts.index.worker.publisher = ProgressPublisher(
        engine.indexing_stats,
        lambda progress: heard.append(progress.files),
        clock=lambda: 0.0,
        schedule=lambda _wait, send: trailing.append(send),
    )
    enqueue = engine.parts.indexer.enqueue

    def enqueue_once_the_interval_ends(path: str, priority: int) -> None:
        send_trailing()
        enqueue(path, priority)

    engine.parts.indexer.enqueue = enqueue_once_the_interval_ends
    engine.undo_transaction(plan["transaction_id"])
    send_trailing()
    assert heard and heard[-1] == files, heard
