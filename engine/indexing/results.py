"""The typed answers of the sense and queue commands (engine/indexing/service.py and queue.py build them).

Each keeps the JSON its dict gave the page and the CLI (`bridge.to_jsonable` dumps it), so the page
reads the same keys while the engine's callers read attributes the type checker knows.
"""

from __future__ import annotations

from engine.results import Result


class Requalifying(Result):
    """`qualify_folder`: how many unpinned files beneath the folder went back to the queue for a fresh
    sense (pinned ones are a person's word and are skipped)."""

    count: int


class FileSense(Result):
    """`qualify_file`: the file's sense after asking for a fresh one (null while none is written yet;
    a pinned sense is kept as the person wrote it)."""

    path: str
    sense: str | None


class PinnedSense(Result):
    """`set_file_summary`: the sense a person wrote, pinned so re-qualifying never replaces it."""

    path: str
    sense: str
    pinned: bool = True


class QueueRow(Result):
    """One row of `indexing_queue`: a file waiting to be read ("queued") or one that failed and waits
    for Retry ("failed", with the reason in `error`, null otherwise)."""

    path: str
    priority: int
    action: str
    status: str
    attempts: int
    error: str | None
