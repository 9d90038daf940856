""" "Propose a fix": the findings of one kind turned into the operations of an ordinary Dry-Run plan.

The operations go through the same `propose_plan` as the agent's proposals (validation on a virtual
tree, a draft with fingerprints), so a Gardener fix is reviewed in the plan card, applied
transactionally and undone like any other plan. Duplicates go to SenseTree's trash keeping the
filed copy (engine/gardener/keep.py) or the one the person picked; misplaced files move to the folder
they belong with; unhelpful names are renamed from the file's title or sense; empty folders and stale
large files go to the trash; a junk drawer's loose files are grouped into subfolders by kind. Deep
nesting has no automatic fix.

Each operation carries `ticked`: only what the finding is sure of comes ticked (its evidence says
`confident`); the rest is listed unticked with the reason why, after the sure lines.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from typing import NotRequired, TypedDict

from engine.errors import InvalidInput
from engine.gardener.keep import folder_label
from engine.gardener.layout import Lister
from engine.gardener.model import LABELS, SINGULAR, Finding, FolderReport
from engine.indexing.crawl import is_junk_file_name
from engine.txn.model import OperationKind

GROUP_LIMIT = 10_000  # a junk drawer's loose files moved by one plan

GROUPS: dict[str, tuple[str, ...]] = {
    "Documents": (".pdf", ".doc", ".docx", ".odt", ".rtf", ".txt", ".md", ".epub", ".pages"),
    "Spreadsheets": (".xls", ".xlsx", ".ods", ".csv", ".numbers"),
    "Presentations": (".ppt", ".pptx", ".odp", ".key"),
    "Images": (".jpg", ".jpeg", ".png", ".gif", ".heic", ".webp", ".tif", ".tiff", ".bmp", ".svg"),
    "Audio": (".mp3", ".wav", ".m4a", ".flac", ".ogg", ".aac"),
    "Video": (".mp4", ".mov", ".mkv", ".avi", ".webm"),
    "Archives": (".zip", ".tar", ".gz", ".7z", ".rar", ".dmg", ".iso"),
    "Code": (".py", ".js", ".ts", ".html", ".css", ".json", ".yaml", ".yml", ".sh", ".ipynb"),
}


class Op(TypedDict):
    """One operation of a fix, as the plan's validation reads it (engine/txn/validate.py)."""

    kind: OperationKind
    reason: str
    ticked: bool
    old_path: NotRequired[str]
    new_path: NotRequired[str]


def fix_plan(
    report: FolderReport, kind: str, lister: Lister, keep: Iterable[str] = ()
) -> tuple[str, list[Op]]:
    """The summary and operations fixing every finding of `kind` in `report`."""
    findings = [f for f in report.findings if f.kind == kind]
    if kind not in LABELS:
        raise InvalidInput(f"“{kind}” is not a kind of finding; use one of {', '.join(LABELS)}.")
    if not findings:
        raise InvalidInput(f"No {LABELS[kind]} were found in {report.path}, so there is nothing to fix.")
    chosen = set(keep)
    ops: list[Op] = []
    for finding in findings:
        ops.extend(_operations(finding, chosen, lister))
    ops.sort(key=lambda op: not op["ticked"])  # the sure lines first, then those to check (stable)
    if not ops:
        raise InvalidInput(f"The {LABELS[kind]} in {report.path} have no automatic fix; tidy them by hand.")
    what = LABELS[kind] if len(findings) > 1 else SINGULAR[kind]
    return f"Tidy {report.path}: fix {len(findings)} {what}", ops


def _operations(finding: Finding, keep: set[str], lister: Lister) -> list[Op]:
    kind = finding.kind
    if kind in ("duplicate", "near_duplicate", "version"):
        return _trash_copies(finding, keep)
    if kind == "misplaced" and finding.target:
        source = finding.paths[0]
        target = os.path.join(finding.target, os.path.basename(source))
        sure = finding.evidence[0].confident
        return [] if os.path.lexists(target) else [_op("move", source, target, finding.why, sure)]
    if kind == "unhelpful_name" and finding.target:
        source = finding.paths[0]
        new = os.path.join(os.path.dirname(source), finding.target)
        return [_op("rename", source, new, finding.why, finding.evidence[0].confident)]
    if kind in ("empty_folder", "stale_large"):
        return [_op("delete", finding.paths[0], reason=finding.why)]
    if kind == "clutter":
        return _grouping(finding.paths[0], lister)
    return []


def _trash_copies(finding: Finding, keep: set[str]) -> list[Op]:
    """Trash every copy but the one kept; each reason names both folders. A copy comes ticked only when
    the finding is sure of it (and the person did not pick another copy to keep than the one the
    finding chose, in which case the person's choice is the reason)."""
    picked = next((p for p in finding.paths if p in keep), finding.keep) or finding.paths[0]
    kept = f"{os.path.basename(picked)} in {folder_label(picked)}"
    ops = []
    for e in finding.evidence:
        if e.path == picked:
            continue
        sure = e.confident or picked != finding.keep
        why = e.note if picked == finding.keep else f"copy in {folder_label(e.path)}; you chose which to keep"
        ops.append(
            _op("delete", e.path, reason=f"{finding.title}: keeping {kept}; this is the {why}", ticked=sure)
        )
    return ops


def _grouping(folder: str, lister: Lister) -> list[Op]:
    """mkdir one subfolder per kind of file (with at least two files) and move the loose files in."""
    by_group: dict[str, list[str]] = defaultdict(list)
    for entry in lister.listing(folder, limit=GROUP_LIMIT):
        if not entry.is_dir and not is_junk_file_name(entry.name) and not os.path.islink(entry.path):
            by_group[_group_of(entry.name)].append(entry.path)
    ops: list[Op] = []
    for group, paths in sorted(by_group.items()):
        if len(paths) < 2:
            continue
        target = os.path.join(folder, group)
        if not os.path.lexists(target):
            ops.append(_op("mkdir", None, target, f"a home for the loose {group.lower()}"))
        elif not os.path.isdir(target):
            continue
        ops.extend(_op("move", p, os.path.join(target, os.path.basename(p)), f"group {group}") for p in paths)
    return ops


def _group_of(name: str) -> str:
    ext = os.path.splitext(name)[1].lower()
    return next((group for group, exts in GROUPS.items() if ext in exts), "Other")


def _op(
    kind: OperationKind, old: str | None, new: str | None = None, reason: str = "", ticked: bool = True
) -> Op:
    op = Op(kind=kind, reason=reason, ticked=ticked)
    if old is not None:
        op["old_path"] = old
    if new is not None:
        op["new_path"] = new
    return op
