"""The typed answers of the sense and queue commands (engine/indexing/service.py and queue.py build them).

Each keeps the JSON its dict gave the page and the CLI (`bridge.to_jsonable` dumps it), so the page
reads the same keys while the engine's callers read attributes the type checker knows.
"""

from __future__ import annotations

from engine.results import Result


class Reading(Result):
    """One thing read from a file, shown in Details (readings.py): `label` (what it is: "Caption",
    "Photo details", "Page 2"…), `source` (what read it, from where: the endpoint's model and address,
    Pillow, Tesseract), `text`."""

    label: str
    source: str
    text: str


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


class SenseRow(Result):
    """One row of `read_semantics`: a file's stored sense (null until one is written), its document type
    and whether a person pinned it."""

    path: str
    sense: str | None
    doc_type: str | None
    pinned: bool


class PathDetails(Result):
    """`path_details`: what the details view shows about one file or folder. Every key is sent (nulls
    included) except `semantic` (only for a catalogued file: "pending" until its vectors land),
    `files` (only for a folder: how many catalogued files lie beneath it) and `readings` (only when
    something was read besides the text: a caption or transcript, EXIF, tags, OCR)."""

    path: str
    name: str
    is_dir: bool
    size: int
    mtime: float
    root: str | None
    sense: str | None
    pinned: bool
    doc_type: str | None
    status: str  # "not indexed", "folder", "failed", or the catalog's status
    error: str | None
    note: str | None
    chunks: int
    queued: bool  # waiting to be read (a failed file waits for Retry instead, and says so in `status`)
    semantic: str | None = None
    files: int | None = None
    readings: list[Reading] | None = None  # caption, transcript, EXIF, tags, OCR text, each with its source


class Thumbnail(Result):
    """`file_thumbnail`: a picture's thumbnail as a data URL (a JPEG at most 160 pixels a side)."""

    path: str
    data_url: str


class QueueRow(Result):
    """One row of `indexing_queue`: a file waiting to be read ("queued") or one that failed and waits
    for Retry ("failed", with the reason in `error`, null otherwise)."""

    path: str
    priority: int
    action: str
    status: str
    attempts: int
    error: str | None
