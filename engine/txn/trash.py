"""The trash survives a lost database: each item has a manifest file next to it, and a free-space check.

`<data dir>/trash/<item id>__<name>` holds what `delete` moved; `<item id>.manifest.json` beside it
holds the original path, the time and the transaction. The manifest is written before the item moves
in, removed when a rollback takes the item out again or when it is restored. SQLite's `txn_trash`
stays the index the commands read; `adopt_manifests` re-creates its rows from the manifests when the
database was lost or rebuilt, so `trash_list` and `trash_restore` keep working.

A delete across file systems copies the item into the data folder; `room_needed` / `check_room`
refuse such a plan up front when the data folder cannot hold the copies.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any, TypedDict

from engine import privacy
from engine.errors import NoSpace

log = logging.getLogger(__name__)

MARGIN_BYTES = 32 * 1024 * 1024  # room the databases and journal files need besides the copies


class Manifest(TypedDict):
    """What `<item id>.manifest.json` holds (`trash_path` re-based on the data folder when read)."""

    item_id: str
    original_path: str
    trash_path: str
    transaction_id: str | None
    trashed_at: float


def manifest_path(trash_dir: Path, item_id: str) -> Path:
    return trash_dir / f"{item_id}.manifest.json"


def write_manifest(
    trash_dir: Path,
    item_id: str,
    original: str,
    trash_path: str,
    txn_id: str | None,
    trashed_at: float | None = None,
) -> None:
    trash_dir.mkdir(mode=privacy.DIR_MODE, parents=True, exist_ok=True)
    data: Manifest = {
        "item_id": item_id,
        "original_path": original,
        "trash_path": trash_path,
        "transaction_id": txn_id,
        "trashed_at": trashed_at or time.time(),
    }
    path = manifest_path(trash_dir, item_id)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, privacy.FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, ensure_ascii=False))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def remove_manifest(trash_dir: Path, item_id: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        manifest_path(trash_dir, item_id).unlink()


def read_manifests(trash_dir: Path) -> list[Manifest]:
    """Every readable manifest whose item is still in the trash."""
    if not trash_dir.is_dir():
        return []
    items = []
    for path in sorted(trash_dir.glob("*.manifest.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            trash_path = trash_dir / os.path.basename(data["trash_path"])  # the data folder may have moved
            data["trash_path"] = str(trash_path)
            if os.path.lexists(trash_path):
                items.append(data)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("ignored the unreadable trash manifest %s: %s", path, exc)
    return items


def adopt_manifests(store: Any, trash_dir: Path) -> int:
    """Give every manifest without a `txn_trash` row its row back (after the database was lost)."""
    adopted = 0
    for item in read_manifests(trash_dir):
        if store.trash_item(item["item_id"]) is None:
            with store.db.atomic():
                store.trash_add(
                    item["item_id"],
                    item["original_path"],
                    item["trash_path"],
                    item["transaction_id"],
                    trashed_at=float(item["trashed_at"]),
                )
            adopted += 1
    if adopted:
        log.warning("re-listed %d trash item(s) from their manifests", adopted)
    return adopted


def room_needed(paths: list[str], trash_dir: Path) -> int:
    """Bytes a delete of `paths` copies into the data folder: those on another file system than the trash."""
    device = os.stat(_existing(trash_dir)).st_dev
    total = 0
    for path in paths:
        try:
            if os.lstat(path).st_dev != device:
                total += _tree_bytes(path)
        except OSError:
            continue  # validation and the apply itself report a missing source
    return total


def check_room(paths: list[str], trash_dir: Path) -> None:
    needed = room_needed(paths, trash_dir)
    if not needed:
        return
    folder = _existing(trash_dir)
    free = shutil.disk_usage(folder).free
    if needed + MARGIN_BYTES > free:
        raise NoSpace(
            f"Deleting these files needs {human(needed + MARGIN_BYTES)} in the data folder ({folder}), "
            f"{human(free)} free; nothing was changed. Free some space there, or delete fewer files "
            "at once (SenseTree keeps deleted files in its trash so they can be restored)."
        )


def human(size: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB"):
        if size < 1000 or unit == "TB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} TB"


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _tree_bytes(path: str) -> int:
    info = os.lstat(path)
    if not os.path.isdir(path) or os.path.islink(path):
        return info.st_size
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total
