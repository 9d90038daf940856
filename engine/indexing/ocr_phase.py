"""OCR of scanned PDF pages and of photos, in the background, one page at a time, never twice.

The keyword phase finds a PDF's pages without a text layer (`Extracted.scan_pages`). When every such
page is already in the OCR cache (`ocr_pages`, keyed by the file's content hash and the page number),
their text joins the file's text at once; otherwise the file is recorded in `ocr_wanted` and indexed
with what it has (its name, its descriptor, any text layer). The worker runs `OcrPhase.run_page` only
when no queue job is due and nothing waits for embedding: it reads *one* page and commits it, so a
500-page scan delays another file's keyword phase by one page at most, and a kill loses at most the
page being read. When the last page is cached the file is queued again (its hash forgotten, so it is
read again); the keyword phase then finds every page cached and indexes the text. Nothing is OCRed
twice: not after a kill, not when the same scan is copied elsewhere (same hash), not on a re-index.

A photo is one page (photo_ocr.py: a quick look for text first). Its words join its EXIF in its one
chunk; a photo with no text is not indexed again, only its note changes.

A page Tesseract cannot read (timeout, damaged page) is cached as empty with its reason, so it is not
retried forever. Without Tesseract nothing is recorded and the note says what to install.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import time
from collections.abc import Callable

from engine.db import Database, Migration
from engine.errors import ExtractionError
from engine.indexing import ocr
from engine.indexing.catalog import under_clause, under_params
from engine.indexing.extract import Extracted
from engine.indexing.file_hash import file_hash
from engine.indexing.pathtext import from_store, printable, to_store
from engine.indexing.photo_ocr import NO_TEXT, is_photo, read_photo
from engine.indexing.queue import MANUAL

log = logging.getLogger(__name__)

WORD = re.compile(r"\w{3,}")
PAGE_MATCH = 0.6  # a snippet is cut from one page's text; a text-layer snippet shares few words with a scan
PHOTO_TEXT_LABEL = "Text in the picture (read by OCR, Tesseract):"
PHOTO_WAIT = "Waits for OCR to look for text in the picture (Tesseract, in the background)"
PHOTO_NOTE = "Text in the picture read by OCR (Tesseract); catalogued with its own metadata (EXIF)"

MIGRATIONS: list[Migration] = [
    (
        "ocr_0001_pages",
        """
        CREATE TABLE ocr_pages (
            hash TEXT NOT NULL,
            page INTEGER NOT NULL,
            text TEXT NOT NULL,
            error TEXT,
            PRIMARY KEY (hash, page)
        );
        CREATE TABLE ocr_wanted (
            path TEXT PRIMARY KEY,
            hash TEXT NOT NULL,
            pages TEXT NOT NULL,
            added REAL NOT NULL
        );
    """,
    ),
]


@functools.cache
def _tell_missing() -> None:
    """Once per run, in the log: the files' notes (shown in Details) say it each time."""
    log.warning(ocr.MISSING)


def _pages_text(pages: tuple[int, ...]) -> str:
    return ",".join(str(p) for p in pages)


class OcrStore:
    """The OCR cache and the files waiting for it, in the catalog's SQLite file."""

    def __init__(self, db: Database):
        self.db = db
        db.migrate(MIGRATIONS)

    def cached(self, digest: str, pages: tuple[int, ...]) -> dict[int, str]:
        rows = self.db.query("SELECT page, text FROM ocr_pages WHERE hash = ?", (digest,))
        wanted = set(pages)
        return {r["page"]: r["text"] for r in rows if r["page"] in wanted}

    def want(self, path: str, digest: str, pages: tuple[int, ...]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO ocr_wanted(path, hash, pages, added) VALUES (?, ?, ?, ?)",
            (to_store(path), digest, _pages_text(pages), time.time()),
        )

    def next_wanted(self) -> tuple[str, str, tuple[int, ...]] | None:
        row = self.db.one("SELECT path, hash, pages FROM ocr_wanted ORDER BY added, path LIMIT 1")
        if row is None:
            return None
        pages = tuple(int(p) for p in row["pages"].split(",") if p)
        return from_store(row["path"]), row["hash"], pages

    def pages(self, digest: str) -> list[tuple[int, str, str | None]]:
        """Every page of this content that OCR read: (page from 0, text, why it has none)."""
        sql = "SELECT page, text, error FROM ocr_pages WHERE hash = ? ORDER BY page"
        rows = self.db.query(sql, (digest,))
        return [(r["page"], r["text"], r["error"]) for r in rows]

    def page_of(self, digest: str, snippet: str, marked: list[tuple[int, int]]) -> int | None:
        """The scanned page (from 1) a search hit was read from by OCR; else None. The words that matched
        (`marked` spans of the snippet) decide, or the whole snippet when none are marked: a snippet
        may run over a page break. The page holding most of them wins, if it holds PAGE_MATCH of them."""
        looked = " ".join(snippet[start:end] for start, end in marked) or snippet
        words = set(WORD.findall(looked.lower()))
        if not words:
            return None
        best, share = None, 0.0
        for page, text, _ in self.pages(digest):
            held = len(words & set(WORD.findall(text.lower()))) / len(words)
            if held > share:
                best, share = page, held
        return best + 1 if best is not None and share >= PAGE_MATCH else None

    def reason(self, digest: str, page: int) -> str | None:
        """Why OCR found no text on the page (None when it read some, or has not read it)."""
        row = self.db.one("SELECT error FROM ocr_pages WHERE hash = ? AND page = ?", (digest, page))
        return None if row is None else row["error"]

    def waiting(self) -> int:
        return int(self.db.scalar("SELECT count(*) FROM ocr_wanted"))

    def save_page(self, digest: str, page: int, text: str, error: str | None) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO ocr_pages(hash, page, text, error) VALUES (?, ?, ?, ?)",
            (digest, page, text, error),
        )

    def rename(self, old: str, new: str) -> None:
        """A file or folder moved (a path update, nothing re-read): its scans still wait, at the new path."""
        moved = "UPDATE OR REPLACE ocr_wanted SET path = ? || substr(path, length(?) + 1) WHERE "
        self.db.execute(moved + under_clause(), (to_store(new), to_store(old), *under_params(old)))

    def done_with(self, path: str) -> None:
        self.db.execute("DELETE FROM ocr_wanted WHERE path = ?", (to_store(path),))

    def with_ocr(self, path: str, digest: str, extracted: Extracted, max_chars: int) -> Extracted:
        """`extracted` with its scanned pages' cached text, or recorded as waiting for OCR."""
        pages = extracted.scan_pages
        merged = self.merged(digest, extracted, max_chars)
        if merged is not None:
            return merged
        if not ocr.available():
            if is_photo(path):  # a photo without OCR is what it always was: its name and its EXIF
                return dataclasses.replace(extracted, scan_pages=())
            _tell_missing()
            return dataclasses.replace(extracted, note=ocr.MISSING)
        self.want(path, digest, pages)
        missing = len(pages) - len(self.cached(digest, pages))
        note = f"{missing} scanned page(s) wait for OCR (Tesseract, in the background)"
        if is_photo(path):
            note = PHOTO_WAIT
        return dataclasses.replace(extracted, note=note)

    def for_reading(self, path: str, extracted: Extracted, max_chars: int) -> Extracted:
        """What the agent reads: the OCR text once every scanned page is read (nothing is queued here)."""

        merged = self.merged(file_hash(path), extracted, max_chars)
        return merged if merged is not None else extracted

    def merged(self, digest: str, extracted: Extracted, max_chars: int) -> Extracted | None:
        """`extracted` with every scanned page's cached text; None while some page is not read yet."""
        pages = extracted.scan_pages
        if not pages:
            return extracted
        cached = self.cached(digest, pages)
        if len(cached) < len(pages):
            return None
        if extracted.doc_type == "binary":  # a photo (photo_ocr.py): its text joins its EXIF in its one chunk
            return photo_merged(extracted, cached[pages[0]])
        read = [cached[p] for p in sorted(pages) if cached[p].strip()]
        text = "\n\n".join(t for t in [extracted.text, *read] if t.strip())
        note = (
            f"Text of {len(read)} of its {len(pages)} scanned page(s) read by OCR (Tesseract)"
            if read
            else f"OCR (Tesseract) found no text on its {len(pages)} scanned page(s)"
        )
        truncated = extracted.truncated or len(text) > max_chars
        return dataclasses.replace(
            extracted, text=text[:max_chars], truncated=truncated, note=note, scan_pages=()
        )


def has_picture_text(extracted: Extracted) -> bool:
    """A photo whose words OCR read: "done" like a file with text, though its words sit in `about`."""
    return PHOTO_TEXT_LABEL in extracted.about


def photo_merged(extracted: Extracted, text: str) -> Extracted:
    """A photo's OCR text as a labelled part of what is known of it (`about`), beside its EXIF lines."""
    if not text.strip():
        return dataclasses.replace(extracted, note=NO_TEXT, scan_pages=())
    about = "\n".join(part for part in (extracted.about, f"{PHOTO_TEXT_LABEL}\n{text}") if part)
    return dataclasses.replace(extracted, about=about, note=PHOTO_NOTE, scan_pages=())


class OcrPhase:
    """The background step: one page per call, the file re-queued when its last page is read."""

    def __init__(self, indexer) -> None:
        self.indexer = indexer
        self.store: OcrStore = indexer.ocr
        self._told = False

    def run_page(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Read one waiting page (or finish one file); 0 when there is nothing to do."""
        if should_stop() or not ocr.available():
            return 0
        wanted = self.store.next_wanted()
        if wanted is None:
            return 0
        path, digest, pages = wanted
        ix = self.indexer
        record = ix.catalog.get(path)
        if record is None or record.hash != digest:  # gone, or changed: its new version asks again
            self.store.done_with(path)
            return 1
        missing = sorted(set(pages) - set(self.store.cached(digest, pages)))
        if not missing and is_photo(path) and not self.store.cached(digest, pages).get(0, "").strip():
            with ix.lock, ix.db.atomic():  # no text: what is indexed is right already, only the note says so
                self.store.done_with(path)
                # the note changes only if it was OCR's own wait: another phase's (a caption awaited from
                # the vision endpoint) stays, and Details shows the OCR's finding among the readings
                if record.note == PHOTO_WAIT:
                    ix.catalog.set_note(path, self.store.reason(digest, 0) or NO_TEXT)
            return 1
        if not missing:
            with ix.lock, ix.db.atomic():
                self.store.done_with(path)
                ix.catalog.forget_hash(path)
                ix.queue.push(path, MANUAL)
            return 1
        self.store.save_page(digest, missing[0], *self._read(path, missing[0]))
        return 1

    @staticmethod
    def _read(path: str, page: int) -> tuple[str, str | None]:
        try:
            if is_photo(path):
                return read_photo(path)
            return ocr.read_pdf_page(path, page), None
        except ExtractionError as exc:
            log.info("OCR of page %d of %s failed: %s", page + 1, printable(path), exc.reason)
            return "", exc.reason
        except Exception as exc:  # noqa: BLE001 (pdfium or Pillow on a damaged page: cached as unreadable)
            log.info("OCR of page %d of %s failed: %s", page + 1, printable(path), exc)
            return "", f"{type(exc).__name__}: {exc}"
