"""Plan validation: simulate the whole plan on a virtual tree before anything is stored or moved.

Every operation is checked in order against the disk *as earlier operations in the same plan leave
it*: bounds (segment-exact, after `..` and symlinks), a source that exists, a target that does not
(we never overwrite), the fields each kind needs, duplicates and conflicts. Each problem becomes one
message that names the operation and says what to change, so the model can repair its plan.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from engine import paths
from engine.errors import OutOfBounds, PlanInvalid
from engine.roots import NO_ROOTS, Roots
from engine.txn.model import Operation

MAX_OPERATIONS = 10_000
_ABSENT = ("absent", "")


@dataclass
class Validated:
    operations: list[Operation]
    fingerprint_paths: list[str] = field(default_factory=list)  # real sources, checked again at apply
    requalify_final: dict[int, str] = field(default_factory=dict)  # op index → path once the plan ran


def disk_kind(path: str) -> str | None:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    return "dir" if stat.S_ISDIR(mode) else "file"


class VirtualTree:
    """The disk as the plan leaves it so far: explicit entries over the real tree.
    An entry is ('present', kind) for something the plan created, ('absent', '') for something it
    vacated, or ('mapped', real_path) for a real file or folder the plan moved here."""

    def __init__(self) -> None:
        self.state: dict[str, tuple[str, str]] = {}

    def resolve(self, path: str) -> tuple[str, str] | None:
        """('real', real path) or ('virtual', kind) for what is at `path`, None when nothing is."""
        probe = path
        while True:
            entry = self.state.get(probe)
            if entry is not None:
                tag, value = entry
                if tag == "absent" or (tag == "present" and probe != path):
                    return None
                return ("virtual", value) if tag == "present" else ("real", paths.rebase(path, probe, value))
            parent = os.path.dirname(probe)
            if parent == probe:
                return ("real", path)
            probe = parent

    def kind(self, path: str) -> str | None:
        found = self.resolve(path)
        if found is None:
            return None
        return found[1] if found[0] == "virtual" else disk_kind(found[1])

    def _set(self, path: str, entry: tuple[str, str]) -> None:
        self.state[path] = entry

    def _take_beneath(self, path: str) -> dict[str, tuple[str, str]]:
        """Remove and return the explicit entries strictly beneath `path`, including those whose
        parents are real folders with no entry of their own (a new folder inside a real one)."""
        prefix = path.rstrip(os.sep) + os.sep
        return {p: self.state.pop(p) for p in [p for p in self.state if p.startswith(prefix)]}

    def mkdirs(self, path: str) -> None:
        missing = []
        probe = path
        while self.kind(probe) is None:
            missing.append(probe)
            probe = os.path.dirname(probe)
        for directory in reversed(missing):
            self._set(directory, ("present", "dir"))

    def move(self, old: str, new: str) -> None:
        found = self.resolve(old)
        assert found is not None
        self.mkdirs(os.path.dirname(new))
        self._take_beneath(new)
        beneath = self._take_beneath(old)
        self._set(new, ("mapped", found[1]) if found[0] == "real" else ("present", found[1]))
        self._set(old, _ABSENT)
        for path, entry in beneath.items():
            self._set(paths.rebase(path, old, new), entry)

    def delete(self, path: str) -> None:
        self._take_beneath(path)
        self._set(path, _ABSENT)


def parse_operations(raw: Sequence[Any]) -> tuple[list[Operation], list[str]]:
    """Operations from JSON-ish input, with one problem per operation that is not even well-formed."""
    ops, problems = [], []
    for number, item in enumerate(raw, start=1):
        try:
            ops.append(item if isinstance(item, Operation) else Operation.model_validate(item))
        except ValidationError as exc:
            detail = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'operation'}: {e['msg']}" for e in exc.errors()
            )
            problems.append(
                f"operation {number} is malformed ({detail}); kind must be one of "
                "mkdir, move, rename, delete, requalify"
            )
    return ops, problems


def normalize_op_path(path: str) -> str:
    """Absolute, `..` collapsed, every folder above resolved through symlinks; the last name is kept
    (so a symlink itself can be moved, and its target is checked separately)."""
    lexical = paths.lexical(path)
    parent, name = os.path.split(lexical)
    return os.path.join(paths.normalize(parent), name) if name else lexical


class _Checker:
    """One pass over the plan; collects problems instead of stopping at the first."""

    def __init__(self, roots: Roots):
        self.bounds = roots
        self.roots = roots.paths()
        self.tree = VirtualTree()
        self.problems: list[str] = []
        self.vacated_by: dict[str, int] = {}
        self.requalified: dict[int, str] = {}
        self.fingerprints: list[str] = []

    def problem(self, number: int, op: Operation, text: str) -> None:
        self.problems.append(f"operation {number} ({op.kind}): {text}")

    def bounded(self, number: int, op: Operation, raw: str | None, name: str) -> str | None:
        if raw is None or not raw.strip():
            self.problem(number, op, f"`{name}` is required for {op.kind}")
            return None
        if not os.path.isabs(os.path.expanduser(raw)):
            self.problem(number, op, f"`{name}` {raw!r} must be an exact absolute path from the listing")
            return None
        try:
            return self.bounds.require(raw, keep_link=True)  # a symlink is moved itself, not its target
        except OutOfBounds as exc:
            self.problem(number, op, _link_note(raw) + exc.message)
            return None

    def source(self, number: int, op: Operation, path: str) -> bool:
        if path in self.roots:
            self.problem(number, op, f"{path} is an indexed folder itself; remove it in Settings instead")
            return False
        if self.tree.kind(path) is not None:
            found = self.tree.resolve(path)
            if found and found[0] == "real" and found[1] not in self.fingerprints:
                self.fingerprints.append(found[1])
            return True
        if path in self.vacated_by:
            self.problem(
                number,
                op,
                f"{path} was already moved or deleted by operation {self.vacated_by[path]}; "
                "drop one of the two operations",
            )
        else:
            self.problem(
                number,
                op,
                f"{path} does not exist at this point of the plan; use an exact path from the folder listing",
            )
        return False

    def target(self, number: int, op: Operation, path: str) -> bool:
        if self.tree.kind(path) is not None:
            self.problem(
                number, op, f"{path} already exists; SenseTree never overwrites, so choose another name"
            )
            return False
        probe = os.path.dirname(path)
        while self.tree.kind(probe) is None and os.path.dirname(probe) != probe:
            probe = os.path.dirname(probe)
        if self.tree.kind(probe) not in ("dir", None):
            self.problem(number, op, f"{probe} is a file, so nothing can be created inside it")
            return False
        return True

    def check(self, number: int, op: Operation) -> None:
        handler = getattr(self, f"_{op.kind}")
        handler(number, op)

    def _mkdir(self, number: int, op: Operation) -> None:
        new = self.bounded(number, op, op.new_path or op.old_path, "new_path")
        if new is not None and self.target(number, op, new):
            self.tree.mkdirs(new)

    def _move(self, number: int, op: Operation) -> None:
        old = self.bounded(number, op, op.old_path, "old_path")
        new_raw = op.new_path
        if op.kind == "rename" and old and new_raw and os.sep not in new_raw:
            new_raw = os.path.join(os.path.dirname(old), new_raw)
        new = self.bounded(number, op, new_raw, "new_path")
        if old is None or new is None or not self.source(number, op, old):
            return
        if op.kind == "rename" and os.path.dirname(old) != os.path.dirname(new):
            self.problem(
                number, op, f"a rename keeps the folder, but {new} is in another folder; use kind move"
            )
            return
        if paths.is_within(new, old, fold_case=False):
            self.problem(number, op, f"{old} cannot be moved inside itself ({new})")
            return
        if self.target(number, op, new):
            self._rebase_requalified(old, new)
            self.tree.move(old, new)
            self.vacated_by[old] = number

    _rename = _move

    def _delete(self, number: int, op: Operation) -> None:
        old = self.bounded(number, op, op.old_path, "old_path")
        if old is None or not self.source(number, op, old):
            return
        for index, target in self.requalified.items():
            if paths.is_within(target, old, fold_case=False):
                self.problem(
                    number,
                    op,
                    f"it deletes {target}, which operation {index + 1} requalifies; "
                    "drop one of the two operations",
                )
                return
        self.tree.delete(old)
        self.vacated_by[old] = number

    def _requalify(self, number: int, op: Operation) -> None:
        old = self.bounded(number, op, op.old_path, "old_path")
        if not (op.new_summary or "").strip():
            self.problem(number, op, "`new_summary` must be a non-blank description of the file")
            return
        if old is None or not self.source(number, op, old):
            return
        if self.tree.kind(old) != "file":
            self.problem(number, op, f"{old} is a folder; requalify describes one file at a time")
        elif old in self.requalified.values():
            self.problem(number, op, f"{old} is requalified twice; keep one of the two descriptions")
        else:
            self.requalified[number - 1] = old

    def _rebase_requalified(self, old: str, new: str) -> None:
        for index, target in list(self.requalified.items()):
            if paths.is_within(target, old, fold_case=False):
                self.requalified[index] = paths.rebase(target, old, new)


def _link_note(raw: str) -> str:
    """ "(a symbolic link to …)" when `raw` is a link, so the refusal says why an inside name is outside."""
    try:
        kept = normalize_op_path(raw)
        return f"{raw} is a symbolic link to {paths.normalize(kept)}: " if os.path.islink(kept) else ""
    except (OSError, ValueError):
        return ""


def validate(raw_operations: Sequence[Any], roots: Roots) -> Validated:
    """Check a whole plan; raise PlanInvalid with every problem, or return it normalised."""
    ops, problems = parse_operations(raw_operations)
    if not raw_operations:
        raise PlanInvalid(["the plan has no operations; propose at least one change"])
    if len(raw_operations) > MAX_OPERATIONS:
        raise PlanInvalid(
            [f"the plan has {len(raw_operations)} operations; split it (at most {MAX_OPERATIONS})"]
        )
    if problems:
        raise PlanInvalid(problems)
    checker = _Checker(roots)
    if not checker.roots:
        raise PlanInvalid([NO_ROOTS])
    seen: dict[tuple[Any, ...], int] = {}
    for number, op in enumerate(ops, start=1):
        if op.key() in seen:
            checker.problem(number, op, f"it repeats operation {seen[op.key()]}; remove the duplicate")
            continue
        seen[op.key()] = number
        checker.check(number, op)
    if checker.problems:
        raise PlanInvalid(checker.problems)
    return Validated(_normalised(ops), checker.fingerprints, dict(checker.requalified))


def _normalised(ops: list[Operation]) -> list[Operation]:
    """The same operations with exact absolute paths, as stored in the draft and shown to the person."""
    out = []
    for op in ops:
        old = normalize_op_path(op.old_path) if op.old_path else None
        new_raw = op.new_path if op.kind != "mkdir" else (op.new_path or op.old_path)
        if op.kind == "rename" and old and new_raw and os.sep not in new_raw:
            new_raw = os.path.join(os.path.dirname(old), new_raw)
        new = normalize_op_path(new_raw) if new_raw else None
        if op.kind == "mkdir":
            old = None
        out.append(op.model_copy(update={"old_path": old, "new_path": new}))
    return out
