"""Captions of photos and transcripts of recordings, in the background, one file at a time, never twice.

The same shape as the OCR phase (ocr_phase.py). The keyword phase indexes a photo or a recording at
once with what it has (name, descriptor, EXIF or tags). When the person configured a vision or a
transcription endpoint (media_client.py) and the cache (`media_text`, keyed by content hash, kind and
source — "model at address") holds no text for it yet, the file is recorded in `media_wanted`. The
worker runs `MediaPhase.run_one` only when nothing else is due; it sends *one* file and commits its
answer, so a kill loses at most that one request. When the text is cached the file is queued again
(its hash forgotten); the keyword phase then finds the text in the cache and makes it searchable. A
caption joins the file's metadata lines (`Extracted.about`), a transcript becomes its text (chunked).

Files indexed before an endpoint was configured are found by a sweep of the catalog, once per source:
changing the model or the address captions again (a new source); a copy of a photo is never sent again
(same hash). A file the endpoint rejects is cached with its reason (shown in Details) and not retried;
an endpoint that cannot be used now (down, slow, wrong key) pauses the phase with a growing back-off,
and a file that times out three times is given up with that reason. Nothing here runs, and nothing is
sent, while no endpoint is configured.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable

from engine.config import Settings
from engine.db import Database, Migration
from engine.indexing import media_client
from engine.indexing.catalog import SEARCHABLE_SQL, under_clause, under_params
from engine.indexing.extract import Extracted
from engine.indexing.file_hash import file_hash
from engine.indexing.media_client import MediaEndpoint, Refused, Unavailable
from engine.indexing.metadata import AUDIO, PHOTOS
from engine.indexing.pathtext import from_store, printable, to_store
from engine.indexing.queue import MANUAL

log = logging.getLogger(__name__)

CAPTION, TRANSCRIPT = "caption", "transcript"
MAX_ATTEMPTS = 3  # timeouts or server errors on one file before it is given up
BACKOFF_S, BACKOFF_MAX_S = 30.0, 600.0

Endpoints = dict[str, MediaEndpoint]  # kind → the endpoint configured for it (absent: not configured)

MIGRATIONS: list[Migration] = [
    (
        "media_0001_text",
        """
        CREATE TABLE media_text (
            hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            source TEXT NOT NULL,
            text TEXT NOT NULL,
            error TEXT,
            PRIMARY KEY (hash, kind, source)
        );
        CREATE TABLE media_wanted (
            path TEXT PRIMARY KEY,
            hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            source TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            added REAL NOT NULL
        );
        CREATE TABLE media_swept (kind TEXT PRIMARY KEY, source TEXT NOT NULL);
    """,
    ),
]


@dataclasses.dataclass(frozen=True)
class Wanted:
    path: str
    hash: str
    kind: str
    source: str
    attempts: int


@dataclasses.dataclass(frozen=True)
class Found:
    """A cached caption or transcript: `error` says why there is no text."""

    kind: str
    source: str
    text: str
    error: str | None


def media_endpoints(settings: Settings) -> Endpoints:
    """The caption and transcript endpoints the person configured (none by default: nothing is sent)."""
    found = {
        CAPTION: media_client.vision_endpoint(settings.vision),
        TRANSCRIPT: media_client.transcription_endpoint(settings.transcription),
    }
    return {kind: endpoint for kind, endpoint in found.items() if endpoint is not None}


def kind_of(path: str) -> str | None:
    extension = os.path.splitext(path)[1].lower()
    return CAPTION if extension in PHOTOS else TRANSCRIPT if extension in AUDIO else None


class MediaStore:
    """The caption and transcript cache and the files waiting for it, in the catalog's SQLite file."""

    def __init__(self, db: Database):
        self.db = db
        db.migrate(MIGRATIONS)

    def cached(self, digest: str, kind: str, source: str) -> Found | None:
        row = self.db.one(
            "SELECT text, error FROM media_text WHERE hash = ? AND kind = ? AND source = ?",
            (digest, kind, source),
        )
        return None if row is None else Found(kind, source, row["text"], row["error"])

    def latest(self, digest: str) -> Found | None:
        """What Details shows: the cached text of this content (any source, text before errors)."""
        row = self.db.one(
            "SELECT kind, source, text, error FROM media_text WHERE hash = ? "
            "ORDER BY error IS NOT NULL, rowid DESC LIMIT 1",
            (digest,),
        )
        return None if row is None else Found(row["kind"], row["source"], row["text"], row["error"])

    def save(self, wanted: Wanted, text: str, error: str | None) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO media_text(hash, kind, source, text, error) VALUES (?, ?, ?, ?, ?)",
            (wanted.hash, wanted.kind, wanted.source, text, error),
        )

    def want(self, path: str, digest: str, kind: str, source: str) -> None:
        self.db.execute(
            "INSERT INTO media_wanted(path, hash, kind, source, added) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, kind = excluded.kind, "
            "source = excluded.source, attempts = 0 "
            "WHERE (hash, kind, source) != (excluded.hash, excluded.kind, excluded.source)",
            (to_store(path), digest, kind, source, time.time()),
        )

    def next_wanted(self, sources: dict[str, str]) -> Wanted | None:
        """The oldest waiting file whose kind has an endpoint now (`sources`: kind → source)."""
        kinds = list(sources)
        if not kinds:
            return None
        marks = ",".join("?" * len(kinds))
        row = self.db.one(
            f"SELECT path, hash, kind, source, attempts FROM media_wanted WHERE kind IN ({marks}) "
            "ORDER BY added, path LIMIT 1",
            tuple(kinds),
        )
        if row is None:
            return None
        return Wanted(from_store(row["path"]), row["hash"], row["kind"], row["source"], row["attempts"])

    def tried(self, path: str) -> None:
        self.db.execute("UPDATE media_wanted SET attempts = attempts + 1 WHERE path = ?", (to_store(path),))

    def waiting(self) -> int:
        return int(self.db.scalar("SELECT count(*) FROM media_wanted"))

    def done_with(self, path: str) -> None:
        self.db.execute("DELETE FROM media_wanted WHERE path = ?", (to_store(path),))

    def rename(self, old: str, new: str) -> None:
        """A file or folder moved (a path update, nothing re-read): its requests wait at the new path."""
        moved = "UPDATE OR REPLACE media_wanted SET path = ? || substr(path, length(?) + 1) WHERE "
        self.db.execute(moved + under_clause(), (to_store(new), to_store(old), *under_params(old)))

    def swept(self, kind: str) -> str | None:
        row = self.db.one("SELECT source FROM media_swept WHERE kind = ?", (kind,))
        return None if row is None else str(row["source"])

    def mark_swept(self, kind: str, source: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO media_swept(kind, source) VALUES (?, ?)", (kind, source))

    def for_reading(self, path: str, extracted: Extracted) -> Extracted:
        """What the agent reads: the file's cached caption or transcript joined in (nothing is queued)."""
        if kind_of(path) is None:
            return extracted
        found = self.latest(file_hash(path))
        return extracted if found is None else merged(extracted, found)

    def with_media(self, path: str, digest: str, extracted: Extracted, endpoints: Endpoints) -> Extracted:
        """`extracted` with the file's cached caption or transcript, or recorded as waiting for one.
        Untouched while no endpoint for its kind is configured."""
        kind = kind_of(path)
        endpoint = endpoints.get(kind) if kind else None
        if kind is None or endpoint is None:
            return extracted
        found = self.cached(digest, kind, endpoint.source)
        if found is not None:
            return merged(extracted, found)
        if kind == TRANSCRIPT and os.path.getsize(path) > endpoint.limit:
            note = media_client.over_limit(os.path.getsize(path), endpoint.limit)
            return dataclasses.replace(extracted, note=note)
        self.want(path, digest, kind, endpoint.source)
        return dataclasses.replace(extracted, note=f"Waits for a {kind} from {endpoint.source}")


def merged(extracted: Extracted, found: Found) -> Extracted:
    """A caption joins the metadata lines (or the text, when the file has text); a transcript is text."""
    if found.error is not None or not found.text.strip():
        why = found.error or f"the {found.kind} came back empty"
        return dataclasses.replace(extracted, note=f"No {found.kind} from {found.source}: {why}")
    note = f"{found.kind.capitalize()} from {found.source}"
    if found.kind == CAPTION and not extracted.text.strip():
        about = "\n".join(part for part in (extracted.about, f"Caption: {found.text}") if part)
        title = extracted.title or found.text.rstrip(". ")  # the extractive sense: what the photo shows
        return dataclasses.replace(extracted, about=about, note=note, title=title)
    label = "Caption" if found.kind == CAPTION else "Transcript"
    text = "\n\n".join(part for part in (extracted.about, extracted.text, f"{label}:\n{found.text}") if part)
    return dataclasses.replace(extracted, text=text, note=note)


class MediaPhase:
    """The background step: one file per call, re-queued for the keyword phase when its text is cached."""

    def __init__(self, indexer, endpoints: Callable[[], Endpoints], clock=time.monotonic) -> None:
        self.indexer = indexer
        self.store: MediaStore = indexer.media
        self.endpoints = endpoints
        self.clock = clock
        self._resume_at = 0.0
        self._backoff = BACKOFF_S

    def run_one(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Caption or transcribe one waiting file (or sweep once for a new source); 0 when idle."""
        endpoints = self.endpoints()
        if should_stop() or not endpoints or self.clock() < self._resume_at:
            return 0
        if self._sweep(endpoints):
            return 1
        wanted = self.store.next_wanted({k: e.source for k, e in endpoints.items()})
        if wanted is None:
            return 0
        endpoint = endpoints[wanted.kind]
        ix = self.indexer
        record = ix.catalog.get(wanted.path)
        if record is None or record.hash != wanted.hash or wanted.source != endpoint.source:
            self.store.done_with(wanted.path)  # gone, changed or reconfigured: the new version asks again
            return 1
        if self.store.cached(wanted.hash, wanted.kind, wanted.source) is None:
            self._ask(wanted, endpoint)
        if self.store.cached(wanted.hash, wanted.kind, wanted.source) is not None:
            with ix.lock, ix.db.atomic():
                self.store.done_with(wanted.path)
                ix.catalog.forget_hash(wanted.path)
                ix.queue.push(wanted.path, MANUAL)
        return 1

    def wake_in(self, timeout: float | None) -> float | None:
        """The worker's wait, shortened so that it wakes when a back-off ends with files still waiting."""
        if self._resume_at <= self.clock() or not self.store.waiting():
            return timeout
        left = max(0.05, self._resume_at - self.clock())
        return left if timeout is None else min(timeout, left)

    def _ask(self, wanted: Wanted, endpoint: MediaEndpoint) -> None:
        try:
            text = _request(wanted, endpoint)
        except Refused as exc:
            log.info("no %s for %s: %s", wanted.kind, printable(wanted.path), exc.message)
            self.store.save(wanted, "", exc.message)
        except Unavailable as exc:
            self._pause(exc.message)
            if exc.file_specific:
                self.store.tried(wanted.path)
                if wanted.attempts + 1 >= MAX_ATTEMPTS:
                    self.store.save(wanted, "", f"{exc.message} ({MAX_ATTEMPTS} times)")
        else:
            self._backoff = BACKOFF_S
            self.store.save(wanted, text, None)

    def _pause(self, why: str) -> None:
        log.warning("%s; captions and transcripts resume in %.0f s", why, self._backoff)
        self._resume_at = self.clock() + self._backoff
        self._backoff = min(BACKOFF_MAX_S, self._backoff * 2)

    def _sweep(self, endpoints: Endpoints) -> bool:
        """Once per kind and source: every indexed photo or recording without text from it is wanted."""
        for kind, endpoint in endpoints.items():
            if self.store.swept(kind) == endpoint.source:
                continue
            extensions = PHOTOS if kind == CAPTION else AUDIO
            with self.indexer.db.atomic():
                rows = self.indexer.db.query(
                    f"SELECT path, hash FROM files WHERE status IN {SEARCHABLE_SQL} AND hash IS NOT NULL"
                )
                for row in rows:
                    path, digest = from_store(row["path"]), row["hash"]
                    if os.path.splitext(path)[1].lower() in extensions and digest:
                        if self.store.cached(digest, kind, endpoint.source) is None:
                            self.store.want(path, digest, kind, endpoint.source)
                self.store.mark_swept(kind, endpoint.source)
            return True
        return False


def _request(wanted: Wanted, endpoint: MediaEndpoint) -> str:
    if wanted.kind == CAPTION:
        return media_client.caption(endpoint, media_client.resized_jpeg(wanted.path, endpoint.limit))
    try:
        return media_client.transcribe(endpoint, wanted.path)
    except OSError as exc:
        raise Refused(f"Not transcribed: the file could not be read ({exc.strerror or exc})") from exc
