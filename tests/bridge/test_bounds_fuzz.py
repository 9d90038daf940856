"""The bounds fuzz through the bridge: 10,000 hostile paths against every IPC command that takes a path,
with a real Engine on a temporary data folder.

What must hold: no call answers `internal`; a path `Roots` refuses comes back from every command as
`out_of_bounds` with the very message `Roots.require` gives for it (a NUL byte included: the bridge's
argument check refuses it before the engine sees it, with the same error); no answer carries a byte of
a file outside the roots;
and — watched with a Python audit hook on every `open` and directory listing the process makes —
nothing outside the roots is ever opened or listed while the fuzz runs.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any

import pytest

from bridge import Api
from engine.errors import OutOfBounds
from engine.roots import Roots
from tests.bounds_world import SECRET, World, build_world, generated_paths, physically_inside

_watch = threading.local()
_AUDITED = {"open", "os.scandir", "os.listdir", "os.walk"}


def _audit(event: str, args: tuple[Any, ...]) -> None:
    seen = getattr(_watch, "seen", None)
    if seen is not None and event in _AUDITED and args and isinstance(args[0], str):
        seen.append((event, args[0]))


sys.addaudithook(_audit)  # process-wide and permanent; it records only while a test sets `seen`


def _touched_outside(seen: list[tuple[str, str]], world: World) -> list[tuple[str, str]]:
    """The opens and listings of the world's files that are not inside a root by inode."""
    base = str(world.base)
    return [
        (event, path)
        for event, path in seen
        if path.startswith(base) and not physically_inside(path, world.roots)
    ]


@pytest.fixture
def fuzz_world(tmp_path, engine):
    world = build_world(tmp_path / "world")
    api = Api(engine)
    for root in world.roots:
        assert api.add_indexed_folder(path=root)["ok"]
    engine.parts.index.drain()
    return world, api, engine


def _answers(api: Api, path: str, trash_item: str) -> dict[str, dict[str, Any]]:
    """Every path-taking command's envelope for `path` (the ones that would act on an accepted path
    — open it, restore into it — are the caller's to call only for refused paths)."""
    return {
        "list_directory": api.list_directory(path=path),
        "path_details": api.path_details(path=path),
        "read_semantics": api.read_semantics(path=path, recursive=True),
    }


def _acting(api: Api, path: str, trash_item: str, *, inside: bool = False) -> dict[str, dict[str, Any]]:
    """The commands that change or run something when the path is in bounds (`inside`: leave out
    the two that would open an application or move the trashed file)."""
    if not path:  # an empty optional scope or target is none: the whole index, the item's own place
        return {}
    effects = (
        {}
        if inside
        else {
            "open_path": api.open_path(path=path),
            "trash_restore": api.trash_restore(item_id=trash_item, target_path=path),
        }
    )
    return effects | {
        "qualify_file": api.qualify_file(path=path),
        "qualify_folder": api.qualify_folder(path=path),
        "set_file_summary": api.set_file_summary(path=path, summary="fuzzed"),
        "reindex_path": api.reindex_path(path=path),
        "semantic_search": api.semantic_search(query="invoice", scope=path),
        "plan_reorganization": api.plan_reorganization(instruction="tidy", scope=path),
        "chat_with_assistant": api.chat_with_assistant(
            messages=[{"role": "user", "content": "what is here?"}], scope=path
        ),
    }


def _trashed_item(api: Api, world: World) -> str:
    victim = world.docs / "to-trash.txt"
    victim.write_text("going to the trash\n", encoding="utf-8")
    plan = api._engine.parts.txn.propose_plan("trash one", [{"kind": "delete", "old_path": str(victim)}])
    assert api.apply_action_plan(transaction_id=plan["transaction_id"])["ok"]
    [item] = api.trash_list()["data"]
    return item["item_id"]


def test_ten_thousand_hostile_paths_through_every_path_command_never_leave_the_roots(fuzz_world):
    world, api, engine = fuzz_world
    trash_item = _trashed_item(api, world)
    roots = engine.running.roots
    counts = {"refused": 0, "accepted": 0, "acted": 0}
    _watch.seen = []
    try:
        for path in generated_paths(world, 10_000, seed=1414):
            allowed = roots.allows(path)
            answers = _answers(api, path, trash_item)
            if not allowed:  # a plan and the trash keep a final symlink itself: a loop link is theirs
                answers |= _acting(api, path, trash_item, inside=_kept_allowed(roots, path))
            elif counts["acted"] < 40 and "\x00" not in path:  # the slow ones, on a sample of inside paths
                counts["acted"] += 1
                answers |= _acting(api, path, trash_item, inside=True)
            counts["accepted" if allowed else "refused"] += 1
            for command, envelope in answers.items():
                _check(command, path, allowed, envelope, world, roots)
    finally:
        seen, _watch.seen = _watch.seen, None
    assert not _touched_outside(seen, world)
    assert counts["refused"] > 1000 and counts["accepted"] > 500, counts
    assert any(path.startswith(str(world.docs)) for _e, path in seen)  # the hook did watch the roots


def _kept_allowed(roots: Roots, path: str) -> bool:
    try:
        roots.require(path, keep_link=True)
    except OutOfBounds:
        return False
    return True


def _refusal(roots: Roots, path: str) -> str:
    """The one message `Roots` refuses `path` with."""
    with pytest.raises(OutOfBounds) as refused:
        roots.require(path)
    return refused.value.message


def _check(
    command: str, path: str, allowed: bool, envelope: dict[str, Any], world: World, roots: Roots
) -> None:
    where = f"{command}({path!r})"
    assert envelope["ok"] or envelope["error"]["code"] != "internal", (where, envelope)
    assert SECRET not in json.dumps(envelope), where
    if not allowed:
        assert not envelope["ok"] and envelope["error"] == {
            "code": "out_of_bounds",
            "message": _refusal(roots, path),
        }, (where, envelope)
    elif command == "list_directory" and envelope["ok"]:
        for entry in envelope["data"]:
            assert physically_inside(entry["path"], world.roots) or os.path.islink(entry["path"]), entry


def test_list_directory_answers_entry_objects_with_exact_paths(fuzz_world):
    world, api, _engine = fuzz_world
    listing = api.list_directory(path=str(world.docs))
    assert listing["ok"]
    by_name = {e["name"]: e for e in listing["data"]}
    assert set(by_name["a.txt"]) == {"path", "name", "is_dir", "size", "modified"}
    assert by_name["a.txt"]["path"] == str(world.docs / "a.txt") and by_name["a.txt"]["size"] > 0
    assert by_name["sub"]["is_dir"] is True and ".hidden" not in by_name
    assert by_name["out"]["is_dir"] is False  # a link out is named, never followed


def test_with_no_folder_indexed_every_path_command_refuses_as_out_of_bounds(tmp_path, engine):
    api = Api(engine)
    (tmp_path / "loose.txt").write_text(SECRET, encoding="utf-8")
    path = str(tmp_path / "loose.txt")
    for command, envelope in (_answers(api, path, "none") | _acting(api, path, "none")).items():
        if command == "trash_restore":
            continue  # no item in the trash: not found comes first
        assert envelope["error"]["code"] == "out_of_bounds", (command, envelope)
        assert "Folders & indexing" in envelope["error"]["message"], command
