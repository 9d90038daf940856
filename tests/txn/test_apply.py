"""Approving a plan: the disk, the index and the senses change together, or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import Conflict, InvalidInput, NotFound, PlanInvalid
from engine.results import Done
from engine.roots import Roots
from engine.txn.results import Restored
from tests.txn.txn_support import mixed_plan, snapshot


def test_mixed_plan_commits_disk_index_and_senses_together(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    result = service.apply_action_plan(plan["transaction_id"])
    r = world.root
    assert result.applied == 7 and result.rollback is None
    assert (r / "Finance/acme.txt").read_text() == "Invoice 42 from ACME, 120 EUR"
    assert (r / "Finance/2024/Q1/bolt.txt").exists() and (r / "Media/photos/cat.txt").exists()
    assert (r / "shopping.md").exists() and not (r / "notes.md").exists() and not (r / "old").exists()
    assert f"{r}/Media/photos/dog.txt" in world.index.rows and f"{r}/photos/dog.txt" not in world.index.rows
    assert f"{r}/old/draft.txt" not in world.index.rows
    assert world.index.sense_of(f"{r}/Finance/acme.txt") == ("[invoice] ACME invoice 42", True)
    assert (f"{r}/Finance/acme.txt", 9) in world.index.queued
    [trashed] = service.trash_list()
    assert trashed.original_path == f"{r}/old" and trashed.transaction_id == plan["transaction_id"]
    assert world.trash_files() == [f"{trashed.item_id}__old"]
    [listed] = [t.model_dump() for t in service.list_transactions()]  # the JSON History reads
    assert listed["status"] == "committed" and listed["committed_at"] and listed["summary"] == "Tidy up"


def test_propose_stores_a_draft_and_touches_nothing(world):
    before = snapshot(world.root)
    plan = world.service().propose_plan("Tidy up", mixed_plan(world.root))
    assert snapshot(world.root) == before
    assert len(plan["operations"]) == 7 and plan["transaction_id"]
    assert world.service().list_transactions()[0].status == "draft"


def test_discard_marks_the_draft_and_approval_after_discard_is_refused(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    before = snapshot(world.root)
    assert service.discard_action_plan(plan["transaction_id"]) == Done()
    with pytest.raises(Conflict, match="discarded, not a draft"):
        service.apply_action_plan(plan["transaction_id"])
    assert snapshot(world.root) == before


def test_second_approval_of_the_same_plan_is_refused(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    service.apply_action_plan(plan["transaction_id"])
    after = snapshot(world.root)
    with pytest.raises(Conflict, match="committed, not a draft"):
        service.apply_action_plan(plan["transaction_id"])
    assert snapshot(world.root) == after


def test_unknown_transaction_is_not_found(world):
    with pytest.raises(NotFound, match="no-such-id"):
        world.service().apply_action_plan("no-such-id")


def test_selection_applies_only_the_ticked_operations(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    kept = [op for op in plan["operations"] if op["kind"] in ("rename", "delete")]
    result = service.apply_action_plan(plan["transaction_id"], operations=kept)
    assert result.applied == 2
    assert (world.root / "shopping.md").exists() and (world.root / "invoice-acme.txt").exists()


def test_edited_field_in_the_selection_is_refused(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    edited = [dict(op) for op in plan["operations"]]
    edited[4]["new_path"] = str(world.root / "stolen.md")
    before = snapshot(world.root)
    with pytest.raises(InvalidInput, match="differs from the proposed plan in new_path"):
        service.apply_action_plan(plan["transaction_id"], operations=edited)
    assert snapshot(world.root) == before
    assert service.list_transactions()[0].status == "draft"


def test_injected_operation_is_refused(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    injected = plan["operations"] + [
        {"kind": "delete", "old_path": str(world.root / "notes.md"), "reason": "x"}
    ]
    with pytest.raises(InvalidInput, match="not part of the proposed plan"):
        service.apply_action_plan(plan["transaction_id"], operations=injected)


def test_empty_selection_is_refused(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    with pytest.raises(InvalidInput, match="No operation was selected"):
        service.apply_action_plan(plan["transaction_id"], operations=[])


def test_selection_listing_an_operation_twice_is_refused(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    with pytest.raises(InvalidInput, match="listed twice"):
        service.apply_action_plan(plan["transaction_id"], operations=[plan["operations"][4]] * 2)


def _edit_notes(root: Path) -> None:
    (root / "notes.md").write_text("# Notes\nbuy oat milk")


def _delete_notes(root: Path) -> None:
    (root / "notes.md").unlink()


def _create_target(root: Path) -> None:
    (root / "shopping.md").write_text("someone else's list")


@pytest.mark.parametrize(
    ("change", "refusal", "message"),
    [
        (_edit_notes, Conflict, "notes.md was modified since the plan was proposed"),
        (_delete_notes, Conflict, "notes.md was moved or deleted since the plan was proposed"),
        (_create_target, PlanInvalid, "shopping.md already exists; SenseTree never overwrites"),
    ],
    ids=["source edited", "source vanished", "target created (never overwritten)"],
)
def test_a_change_on_disk_after_proposal_is_refused_before_anything_moves(world, change, refusal, message):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    change(world.root)
    before = snapshot(world.root)
    with pytest.raises(refusal, match=message):
        service.apply_action_plan(plan["transaction_id"])
    assert snapshot(world.root) == before


def test_same_size_edit_with_restored_mtime_is_caught_by_the_content_hash(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    target = world.root / "notes.md"
    stat = target.stat()
    target.write_text("# Notes\nbuy MILK")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(Conflict, match="was modified"):
        service.apply_action_plan(plan["transaction_id"])


def test_undo_restores_tree_index_senses_and_empties_the_trash(world):
    service = world.service()
    before, index_before = snapshot(world.root), world.index.state()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    service.apply_action_plan(plan["transaction_id"])
    result = service.undo_transaction(plan["transaction_id"])
    assert result.applied == 7 and result.rollback is None
    assert snapshot(world.root) == before
    world.index.drain()
    assert world.index.state() == index_before
    assert service.trash_list() == [] and world.trash_files() == []
    statuses = {t.transaction_id: t.status for t in service.list_transactions()}
    assert statuses[plan["transaction_id"]] == "undone"
    with pytest.raises(Conflict, match="only a committed plan can be undone"):
        service.undo_transaction(plan["transaction_id"])


def test_undo_is_refused_when_a_moved_file_changed_since(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    service.apply_action_plan(plan["transaction_id"])
    (world.root / "shopping.md").write_text("changed after the apply")
    after = snapshot(world.root)
    with pytest.raises(Conflict, match="shopping.md changed since the plan was applied"):
        service.undo_transaction(plan["transaction_id"])
    assert snapshot(world.root) == after


def test_undo_never_overwrites_a_file_created_at_an_original_path(world):
    service = world.service()
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    service.apply_action_plan(plan["transaction_id"])
    (world.root / "notes.md").write_text("a new file with the old name")
    after = snapshot(world.root)
    result = service.undo_transaction(plan["transaction_id"])
    assert result.applied == 0 and "notes.md already exists" in result.message
    assert snapshot(world.root) == after
    assert {t.status for t in service.list_transactions()} == {"committed", "rolled_back"}


def test_trash_restore_puts_the_item_back_and_queues_it_for_indexing(world):
    service = world.service()
    plan = service.propose_plan("Drop old", [{"kind": "delete", "old_path": str(world.root / "old")}])
    service.apply_action_plan(plan["transaction_id"])
    [item] = service.trash_list()
    assert service.trash_restore(item.item_id) == Restored(path=str(world.root / "old"))
    assert (world.root / "old/draft.txt").read_text() == "an old draft nobody needs"
    assert (str(world.root / "old/draft.txt"), 9) in world.index.queued
    assert service.trash_list() == [] and world.trash_files() == []


def test_trash_restore_to_a_chosen_place_creates_its_folders(world):
    service = world.service()
    plan = service.propose_plan("Drop", [{"kind": "delete", "old_path": str(world.root / "notes.md")}])
    service.apply_action_plan(plan["transaction_id"])
    [item] = service.trash_list()
    target = world.root / "Archive/2023/notes.md"
    assert service.trash_restore(item.item_id, str(target)) == Restored(path=str(target))
    assert target.read_text() == "# Notes\nbuy milk"


def test_trash_restore_never_overwrites_an_existing_file(world):
    service = world.service()
    plan = service.propose_plan("Drop", [{"kind": "delete", "old_path": str(world.root / "notes.md")}])
    service.apply_action_plan(plan["transaction_id"])
    (world.root / "notes.md").write_text("new notes")
    [item] = service.trash_list()
    with pytest.raises(Conflict, match="notes.md already exists; SenseTree never overwrites"):
        service.trash_restore(item.item_id)
    assert (world.root / "notes.md").read_text() == "new notes" and len(service.trash_list()) == 1


def test_trash_restore_outside_the_roots_is_refused(world, tmp_path):
    service = world.service()
    plan = service.propose_plan("Drop", [{"kind": "delete", "old_path": str(world.root / "notes.md")}])
    service.apply_action_plan(plan["transaction_id"])
    [item] = service.trash_list()
    from engine.errors import OutOfBounds

    with pytest.raises(OutOfBounds, match="outside the indexed folders"):
        service.trash_restore(item.item_id, str(tmp_path / "elsewhere.md"))


def test_undo_is_refused_after_its_trashed_item_was_restored(world):
    service = world.service()
    plan = service.propose_plan("Drop", [{"kind": "delete", "old_path": str(world.root / "notes.md")}])
    service.apply_action_plan(plan["transaction_id"])
    service.trash_restore(service.trash_list()[0].item_id, str(world.root / "kept.md"))
    with pytest.raises(Conflict, match="already restored from the trash"):
        service.undo_transaction(plan["transaction_id"])


def test_quiesce_hook_holds_for_the_whole_apply(world):
    import contextlib

    from engine.txn import TxnService

    events: list[str] = []

    @contextlib.contextmanager
    def hold():
        events.append("hold")
        yield
        events.append("release")

    service = TxnService(
        world.db,
        world.home,
        Roots(lambda: world.roots),
        world.index,
        None,
        fault=lambda point: events.append(point.phase),
        quiesce=hold,
    )
    plan = service.propose_plan("Tidy up", mixed_plan(world.root))
    service.apply_action_plan(plan["transaction_id"])
    assert events[0] == "hold" and events[-1] == "release" and "disk" in events and "index" in events


def test_undo_of_a_folder_renamed_then_deleted_reindexes_its_files_at_their_original_place(world):
    r = world.root
    index_before = world.index.state()
    service = world.service()
    plan = service.propose_plan(
        "Rename then drop",
        [
            {"kind": "rename", "old_path": f"{r}/photos", "new_path": f"{r}/pictures"},
            {"kind": "delete", "old_path": f"{r}/pictures"},
        ],
    )
    service.apply_action_plan(plan["transaction_id"])
    service.undo_transaction(plan["transaction_id"])
    assert (f"{r}/photos/cat.txt", 9) in world.index.queued  # not the vanished pictures/cat.txt
    world.index.drain()
    assert world.index.state() == index_before


def test_undo_reindexes_a_file_that_left_a_folder_restored_from_the_trash(world):
    """Regression (found by the apply→undo property test): mkdir b, move a into b, delete b; undoing
    restores b from the trash and moves a back out, and a must be indexed again where it lands."""
    r = world.root
    service = world.service()
    index_before = world.index.state()
    ops = [
        {"kind": "mkdir", "new_path": f"{r}/b", "reason": "r"},
        {"kind": "move", "old_path": f"{r}/notes.md", "new_path": f"{r}/b/notes.md", "reason": "r"},
        {"kind": "delete", "old_path": f"{r}/b", "reason": "r"},
    ]
    plan = service.propose_plan("into b, then away", ops)
    assert service.apply_action_plan(plan["transaction_id"]).applied == 3
    assert service.undo_transaction(plan["transaction_id"]).applied == 3
    world.index.drain()
    assert world.index.state() == index_before


def test_a_folder_made_inside_a_real_folder_travels_with_it_when_that_folder_moves(world):
    """Regression (found by the apply→undo property test): mkdir Finance/Tax/2025 inside the real
    Finance/Tax, move Finance to Money, then move a file into Money/Tax/2025 — the validator lost the new
    folder when a real ancestor two levels up moved, and refused to move it afterwards."""
    r = world.root
    (r / "Finance" / "Tax").mkdir(parents=True, exist_ok=True)
    ops = [
        {"kind": "mkdir", "new_path": f"{r}/Finance/Tax/2025", "reason": "r"},
        {"kind": "move", "old_path": f"{r}/Finance", "new_path": f"{r}/Money", "reason": "r"},
        {"kind": "move", "old_path": f"{r}/Money/Tax/2025", "new_path": f"{r}/Money/2025", "reason": "r"},
    ]
    service = world.service()
    plan = service.propose_plan("nested", ops)
    assert service.apply_action_plan(plan["transaction_id"]).applied == 3
    assert (r / "Money" / "2025").is_dir() and not (r / "Money" / "Tax" / "2025").exists()


def test_undo_succeeds_when_a_folder_it_removes_held_an_earlier_position(world):
    """Regression (found by the apply→undo property test): move a file away, make a folder with its old
    name and a sub-folder, rename the sub-folder; undoing ended by fingerprinting a path inside a folder
    it had just removed, where a file now stands."""
    r = world.root
    ops = [
        {"kind": "move", "old_path": f"{r}/notes.md", "new_path": f"{r}/kept.md", "reason": "r"},
        {"kind": "mkdir", "new_path": f"{r}/notes.md", "reason": "r"},
        {"kind": "mkdir", "new_path": f"{r}/notes.md/a", "reason": "r"},
        {"kind": "rename", "old_path": f"{r}/notes.md/a", "new_path": f"{r}/notes.md/b", "reason": "r"},
    ]
    before = snapshot(r)
    service = world.service()
    plan = service.propose_plan("shuffle", ops)
    assert service.apply_action_plan(plan["transaction_id"]).applied == 4
    assert service.undo_transaction(plan["transaction_id"]).applied == 4
    assert snapshot(r) == before
