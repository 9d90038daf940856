"""The indexer: turns one queued path into catalog + keyword rows (the *keyword phase*), and keeps the
three stores in step when files move, vanish or get a corrected sense. Vectors follow in the
*semantic phase* (semantic.py), batch by batch, so a folder is findable by name and words as fast as
extraction allows.

Write order (what makes a crash repairable). Keyword phase: the old vectors of a changed file are
dropped, then the keyword rows are written, then — in one SQLite transaction — the catalog row (status
done, `semantic = 'pending'`) and the queue entry. A crash before the catalog commit leaves keyword
rows the catalog does not vouch for (and the job still queued); `repair` drops them. Unchanged content
(same hash) is never re-read into the stores, and a move is a path update in all three stores.

One bad file never costs the others: a file that cannot be read is failed with its reason; if a store
refuses a whole batch, each file is stored alone so only the culprit is retried. Every store receives
`pathtext.to_store(path)`; a name that is not valid text is failed with a reason instead of indexed.
A batch stops between files when `should_stop()` says so (pause, remove, quit): the files it did not
reach stay queued, and nothing is half-written.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeGuard

import numpy as np

from engine.db import Database
from engine.embed import Embedder
from engine.errors import ExtractionError
from engine.indexing.catalog import PENDING, Catalog, FileRecord
from engine.indexing.chunk import chunk_text
from engine.indexing.crawl import FILE_TOO_LONG, is_skipped
from engine.indexing.descriptors import (
    FOLDER_NOTE,
    FOLDER_TYPE,
    NAME_ONLY_TYPES,
    describe_file,
    describe_folder,
    descriptor_digest,
    tool_folder_kind,
)
from engine.indexing.extract import Extracted, extract
from engine.indexing.ocr_phase import OcrStore, has_picture_text
from engine.indexing.pathtext import is_text, printable, to_store
from engine.indexing.progress import ProgressTracker
from engine.indexing.qualify import Complete, qualify
from engine.indexing.queue import DELETION, INTERRUPTED, MANUAL, Job, WorkQueue
from engine.indexing.read_ahead import Read, ReadAhead, Reader, read_file, stamp
from engine.indexing.rename_sense import follow_rename
from engine.paths import find_root, is_within

log = logging.getLogger(__name__)

HASH_BLOCK = 1 << 20
FLUSH_S = 0.25  # keyword rows are written at least this often, so counts move file by file
# ...unless writing costs more than a quarter of that: then a group reads files for WRITE_RATIO × the last
# write's time (at most FLUSH_MAX_S), so writes stay a fifth of the keyword phase however slow a loaded
# machine makes each write's fixed cost (measured: 0.7 s a write at load 20, for ~6 files read in 0.25 s).
WRITE_RATIO = 4.0
FLUSH_MAX_S = 1.0


def flush_after(last_write_s: float) -> float:
    """How long a keyword group reads files before it is written, given what the last write took."""
    return min(FLUSH_MAX_S, max(FLUSH_S, WRITE_RATIO * last_write_s))


INTERRUPTED_STATUS = "interrupted"
NOT_TEXT_NAME = (
    "The file name is not valid text in this system's encoding (it was written by another system, "
    "for example in Latin-1), so its contents are not indexed; rename the file to index it"
)


@dataclass
class IndexOptions:
    """What the indexer reads from settings on every file (so a changed setting applies at once)."""

    max_file_bytes: int
    max_chars: int
    chunk_chars: int
    chunk_overlap: int
    qualify_prompt: str
    complete: Complete | None


def _indexed(known: FileRecord) -> bool:
    """The catalog holds this file's content (it was read and stored, not failed)."""
    return bool(known.hash) and known.status in ("done", "skipped")


def same_version(known: FileRecord | None, st: os.stat_result) -> TypeGuard[FileRecord]:
    """Indexed, and the size and mtime are the ones recorded: nothing to read, not even a hash."""
    return known is not None and _indexed(known) and (known.size, known.mtime) == (st.st_size, st.st_mtime)


def same_content(known: FileRecord | None, digest: str) -> TypeGuard[FileRecord]:
    """Indexed with this very content (a touched or copied-back file): nothing to extract."""
    return known is not None and _indexed(known) and known.hash == digest


def file_hash(path: str) -> str:
    digest = hashlib.blake2b(digest_size=20)
    with open(path, "rb") as handle:
        while block := handle.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def chunk_inputs(
    name: str, sense: str, doc_type: str, text: str, opts: IndexOptions
) -> tuple[list[str], list[str]]:
    """(stored texts, embedded texts). Chunk #0 stores and embeds `[doc_type] sense` + its text; the
    others are embedded with a `file name · sense` prefix but stored clean for snippets and BM25."""
    pieces = chunk_text(text, opts.chunk_chars, opts.chunk_overlap) or [""]
    head = f"[{doc_type}] {sense}".strip()
    stored = [f"{head}\n\n{pieces[0]}".strip()] + pieces[1:]
    return stored, embed_inputs(name, sense, stored)


def embed_inputs(name: str, sense: str, stored: list[str]) -> list[str]:
    """What the model reads for stored chunks: #0 as stored, the others behind `file name · sense`."""
    prefix = f"{name} · {sense}".strip()
    return stored[:1] + [f"{prefix}\n{p}" for p in stored[1:]]


def _had_vectors(known: FileRecord | None) -> bool:
    """An earlier version of the file was embedded (its vectors go before the new keyword rows land)."""
    return bool(known and known.status in ("done", "skipped") and known.semantic != PENDING)


@dataclass
class _Prepared:
    """A file read, qualified (extractively) and chunked, waiting for its keyword write."""

    path: str
    root: str
    size: int
    mtime: float
    hash: str
    sense: str
    doc_type: str
    stored: list[str]
    status: str
    note: str | None
    had_vectors: bool  # an earlier version's vectors must go before the new keyword rows land


def _present(path: str) -> bool:
    """Like `os.path.lexists`, but a path the OS refuses to name (ENAMETOOLONG) is there, to be failed
    with its reason rather than forgotten as deleted."""
    try:
        os.lstat(path)
    except OSError as exc:
        return exc.errno == errno.ENAMETOOLONG
    except ValueError:  # an embedded NUL: no such file can exist
        return False
    return True


def _rename_many(store, pairs: list[tuple[str, str]]) -> None:
    """One batched rename where the store offers it, else one call per pair."""
    many = getattr(store, "rename_many", None)
    if many is not None:
        many(pairs)
    else:
        for old, new in pairs:
            store.rename(old, new)


class Indexer:
    """Processes queue jobs and implements the IndexSync protocol the action executor calls."""

    def __init__(
        self,
        db: Database,
        catalog: Catalog,
        queue: WorkQueue,
        keywords,
        vectors,
        embedder: Embedder,
        roots: Callable[[], list[str]],
        options: Callable[[], IndexOptions],
        ocr: OcrStore | None = None,
    ):
        self.db, self.catalog, self.queue = db, catalog, queue
        self.keywords, self.vectors, self.embedder = keywords, vectors, embedder
        self.roots, self.options = roots, options
        self.ocr = ocr if ocr is not None else OcrStore(db)  # scanned pages' text (ocr_phase.py)
        # One file is processed, moved or dropped at a time, so a move seen by the watcher or applied by
        # a plan can never interleave with the same file being written by the worker.
        self.lock = threading.RLock()
        self.shadow = None  # a reembed.Shadow while the embedding model is being switched
        self.tracker = ProgressTracker()  # current file and rates per phase (progress.py)
        self._write_s = 0.0  # what the last keyword-phase write took (flush_after)
        self.changed: Callable[[], None] = lambda: None  # the worker publishes progress from here
        self._ahead = (
            ReadAhead()
        )  # the next files of a batch are read while these are written (read_ahead.py)

    # ---- processing jobs ------------------------------------------------------------------------
    def process(self, job: Job) -> str:
        """Index or drop one path; returns the resulting status. Never raises for a bad file."""
        return self.process_batch([job])[0]

    def process_batch(self, jobs: list[Job], should_stop: Callable[[], bool] | None = None) -> list[str]:
        """Run the keyword phase for several paths. Prepared files are written together at least every
        `flush_after(last write)` seconds (one write per store); the lock is held only for one such group,
        so a move, a plan or a removal waits at most that long. Jobs not reached when `should_stop()`
        turns true are reported `interrupted` and stay queued."""
        stop = should_stop or (lambda: False)
        statuses: dict[int, str] = {}
        pending = list(enumerate(jobs))
        # Jobs a dead process left claimed come back one at a time so that the file that killed it is
        # read alone: those are never read ahead (nor are deletions and names that are not text).
        ahead = [j.path for j in jobs if j.action != "delete" and not j.interrupted and is_text(j.path)]
        self._ahead.begin(ahead, self._reader(self.options()))
        try:
            self._process_groups(pending, statuses, stop)
        finally:
            self._ahead.cancel()  # a stopped batch: what was read ahead and not reached is dropped
        return [statuses.get(at, INTERRUPTED_STATUS) for at in range(len(jobs))]

    def _process_groups(
        self, pending: list[tuple[int, Job]], statuses: dict[int, str], stop: Callable[[], bool]
    ) -> None:
        while pending and not stop():
            with self.lock:
                began = time.monotonic()
                ready: list[_Prepared] = []
                owners: list[int] = []
                group_s = flush_after(self._write_s)
                while pending and not stop() and time.monotonic() - began < group_s:
                    at, job = pending.pop(0)
                    self.tracker.working("keyword", printable(job.path))
                    outcome = self._prepare(job)
                    if isinstance(outcome, _Prepared):
                        ready.append(outcome)
                        owners.append(at)
                    statuses[at] = outcome.status if isinstance(outcome, _Prepared) else outcome
                writing = time.monotonic()
                failed = self._store_or_isolate(ready) if ready else set()
                if ready:
                    self._write_s = time.monotonic() - writing
                for at, item in zip(owners, ready, strict=True):
                    if item.path in failed:
                        statuses[at] = "retry"
            self.tracker.finished("keyword", len(ready) - len(failed) if ready else 0)
            self.changed()

    def _reader(self, opts: IndexOptions) -> Reader:
        """What the read-ahead does for one path: hash it, and extract it unless the catalog already holds
        this content (same size and mtime, or same hash) or it is over the size limit (name only)."""

        def wanted(path: str, st: os.stat_result, digest: str) -> bool:
            if st.st_size > opts.max_file_bytes:
                return False
            known = self.catalog.get(path)
            return not (same_version(known, st) or same_content(known, digest))

        def read(path: str) -> Read | None:
            return read_file(
                path, opts.max_chars, lambda p: extract(p, max_chars=opts.max_chars), file_hash, wanted
            )

        return read

    def _store_or_isolate(self, ready: list[_Prepared]) -> set[str]:
        """Store the batch; if that fails, store each file alone so the good ones are kept and only the
        file(s) a store refused are retried later. Returns the paths that failed."""
        try:
            self._store(ready)
            return set()
        except Exception as exc:
            if len(ready) == 1:
                log.exception("could not store %s", printable(ready[0].path))
                self._fail(ready[0].path, ready[0].root, f"{type(exc).__name__}: {exc}", permanent=False)
                return {ready[0].path}
            log.warning("storing %d files at once failed (%s); storing them one by one", len(ready), exc)
        failed: set[str] = set()
        for item in ready:
            failed |= self._store_or_isolate([item])
        return failed

    def _prepare(self, job: Job) -> _Prepared | str:
        root = find_root(job.path, self.roots())
        if root is None or job.action == "delete" or not _present(job.path):
            self.deleted(job.path)
            return "deleted"
        if self.queue.exhausted(job):  # reading it killed the process every time: stop trying
            self._fail(job.path, root, INTERRUPTED.format(n=job.attempts - 1), permanent=True)
            return "failed"
        if not is_text(job.path):
            self._fail(job.path, root, NOT_TEXT_NAME, permanent=True)
            return "failed"
        try:
            return self._read_file(job.path, root)
        except ExtractionError as exc:
            self._fail(job.path, root, exc.reason, permanent=True)
            return "failed"
        except FileNotFoundError:
            self.deleted(job.path)
            return "deleted"
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                self._fail(job.path, root, FILE_TOO_LONG, permanent=True)
                return "failed"
            log.exception("indexing failed for %s", printable(job.path))
            return self._retry_later(job, root, exc)
        except Exception as exc:  # an unexpected error on one file must never stop the worker
            log.exception("indexing failed for %s", printable(job.path))
            return self._retry_later(job, root, exc)

    def _retry_later(self, job: Job, root: str, exc: Exception) -> str:
        """Retried (with backoff) until `max_attempts`, keeping the error as the reason."""
        reason = f"{type(exc).__name__}: {exc}"
        return "failed" if self._fail(job.path, root, reason, permanent=False) else "retry"

    def _fail(self, path: str, root: str, reason: str, *, permanent: bool) -> bool:
        try:  # the size and mtime let a re-scan leave the unchanged file alone
            st: os.stat_result | None = os.stat(path)
        except (OSError, ValueError):
            st = None
        with self.db.atomic():
            final = self.queue.failed(path, reason, permanent=permanent)
            self.catalog.record_failure(
                path,
                root,
                reason,
                final=final,
                size=st.st_size if st else None,
                mtime=st.st_mtime if st else None,
            )
        return final

    def _read_file(self, path: str, root: str) -> _Prepared | str:
        """Everything up to the embedding: unchanged files stop here, at the cost of a stat or a hash. The
        hash and extraction come from the read-ahead when it read this very version of the file."""
        ahead = self._ahead.take(path)  # before the stat, so a version read ahead is compared with the latest
        st = os.stat(path)
        known = self.catalog.get(path)
        if not os.path.isfile(path):
            return self._folder_block(path, root, st, known)
        if same_version(known, st):
            self.queue.done(path)
            return known.status
        opts = self.options()
        if ahead is not None and (ahead.stamp != stamp(st) or ahead.max_chars != opts.max_chars):
            ahead = None  # another version of the file, or another setting: read it again
        if ahead is not None and ahead.digest is None and ahead.error is not None:
            raise ahead.error  # hashing failed: as if it had failed here
        digest = ahead.digest if ahead is not None and ahead.digest is not None else file_hash(path)
        if same_content(known, digest):
            with self.db.atomic():
                self.catalog.touch(path, st.st_size, st.st_mtime)
                self.queue.done(path)
            return known.status
        if ahead is not None and ahead.error is not None:
            raise ahead.error  # extraction failed on the read-ahead thread: the same reason fails it here
        if ahead is not None and ahead.extracted is not None:
            extracted = ahead.extracted
        else:
            extracted = self._extract(path, st.st_size, opts)
        extracted = self.ocr.with_ocr(path, digest, extracted, opts.max_chars)
        pinned = known.sense if known and known.pinned and known.sense else None
        # the extractive sense now; a model-written one follows in the semantic phase
        sense, doc_type, stored = self.chunks_for(path, extracted, opts, pinned, complete=None)
        status = "done" if extracted.text.strip() or has_picture_text(extracted) else "skipped"
        return _Prepared(
            path,
            root,
            st.st_size,
            st.st_mtime,
            digest,
            sense,
            doc_type,
            stored,
            status,
            extracted.note,
            _had_vectors(known),
        )

    def _folder_block(
        self, path: str, root: str, st: os.stat_result, known: FileRecord | None
    ) -> _Prepared | str:
        """A tool folder (node_modules, a virtualenv…) as one block; any other folder is no file: gone."""
        kind = tool_folder_kind(path) if os.path.isdir(path) else None
        if kind is None:
            self.deleted(path)
            return "deleted"
        if same_version(known, st):
            self.queue.done(path)
            return known.status
        text = describe_folder(path, kind)
        digest = descriptor_digest(f"{path}\n{text}")
        if same_content(known, digest):
            with self.db.atomic():
                self.catalog.touch(path, st.st_size, st.st_mtime)
                self.queue.done(path)
            return known.status
        head = (path, root, st.st_size, st.st_mtime, digest, text.splitlines()[0], FOLDER_TYPE)
        return _Prepared(*head, [f"[{FOLDER_TYPE}] {text}"], "skipped", FOLDER_NOTE, _had_vectors(known))

    def chunks_for(
        self,
        path: str,
        extracted: Extracted,
        opts: IndexOptions,
        pinned: str | None,
        complete: Complete | None,
    ) -> tuple[str, str, list[str]]:
        """(sense, doc type, stored chunk texts) of an extracted file; `pinned` (a person's sense) wins."""
        name = os.path.basename(path)
        if pinned:
            sense, doc_type = pinned, extracted.doc_type
        else:
            found = qualify(
                name=name,
                text=extracted.text,
                doc_type=extracted.doc_type,
                title=extracted.title,
                prompt=opts.qualify_prompt,
                complete=complete,
            )
            sense, doc_type = found.text, found.doc_type
        if extracted.text.strip():
            return sense, doc_type, chunk_inputs(name, sense, doc_type, extracted.text, opts)[0]
        if doc_type in NAME_ONLY_TYPES:  # what it is and where it sits, in words (descriptors.py)
            about = "\n".join(part for part in (extracted.about, describe_file(path, doc_type)) if part)
            return sense, doc_type, [f"[{doc_type}] {name}\n\n{about}"]
        return sense, doc_type, [f"[{doc_type}] {name}"]

    def _store(self, ready: list[_Prepared]) -> None:
        """Drop replaced vectors, write keyword rows, and last the catalog (vectors pending)."""
        stale = [to_store(item.path) for item in ready if item.had_vectors]
        if stale:
            self.drop_vectors(stale)
        self.keywords.upsert_many([(to_store(item.path), item.stored) for item in ready])
        with self.db.atomic():
            for item in ready:
                self.catalog.record_indexed(
                    item.path,
                    item.root,
                    size=item.size,
                    mtime=item.mtime,
                    hash=item.hash,
                    sense=item.sense,
                    doc_type=item.doc_type,
                    chunks=len(item.stored),
                    status=item.status,
                    note=item.note,
                    model=None,
                    semantic=PENDING,
                )
                self.queue.done(item.path)

    def drop_vectors(self, stored_paths: list[str]) -> None:
        """Remove these files' vector rows in one write per index (an empty upsert replaces them)."""
        empty = np.zeros((0, 1), np.float32)
        self.vectors.upsert_many([(p, [], empty) for p in stored_paths])
        if self.shadow is not None:
            self.shadow.vectors.upsert_many([(p, [], empty) for p in stored_paths])

    def _extract(self, path: str, size: int, opts: IndexOptions) -> Extracted:
        if size > opts.max_file_bytes:
            mb = size / 1_000_000
            note = (
                f"Catalogued by name only: {mb:,.0f} MB is over the {opts.max_file_bytes / 1e6:,.0f} MB limit"
            )
            return Extracted(text="", doc_type="large", title=None, truncated=True, note=note)
        return extract(path, max_chars=opts.max_chars)

    # ---- IndexSync ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def quiesced(self) -> Iterator[None]:
        """Hold the worker while a plan's files move and its index sync runs, then publish progress
        once: a send measured in the middle of the sync (a file back from the trash not catalogued yet)
        must not be the last the page hears while the worker is idle."""
        try:
            with self.lock:
                yield
        finally:
            self.changed()

    def moved(self, old: str, new: str) -> None:
        """`old` (a file or a folder) now lives at `new`: rewrite paths everywhere, embed nothing."""
        if old == new:
            return
        with self.lock:
            self._moved(old, new)
        self.changed()  # counts on the page follow a plan's moves at once

    def _moved(self, old: str, new: str) -> None:
        if not self.catalog.under(old, limit=1):
            if os.path.isfile(new) and find_root(new, self.roots()):
                self.enqueue(new, MANUAL)
            return
        if self.catalog.under(new, limit=1):
            self.deleted(new)  # whatever was recorded at the destination is gone now
        new_root = find_root(new, self.roots())
        if new_root is None or not is_text(new):  # out of every root, or to a name we cannot index
            self.deleted(old)
            if new_root is not None and os.path.isfile(new):
                self.enqueue(new, MANUAL)  # recorded failed with its reason
            return
        self.vectors.rename(to_store(old), to_store(new))
        self.keywords.rename(to_store(old), to_store(new))
        if self.shadow is not None:
            self.shadow.vectors.rename(to_store(old), to_store(new))
            self.shadow.rebase_written(old, new)
        with self.db.atomic():
            self.catalog.rename(old, new, new_root)
            follow_rename(self.catalog, old, new)
            self.queue.drop_deletions_under(new)  # before old's own jobs (true deletions) move there
            self.queue.rename(old, new)
            self.ocr.rename(old, new)

    def moved_many(self, pairs: list[tuple[str, str]]) -> None:
        """Several independent moves (no pair touches another's paths) as one update per store."""
        with self.lock:
            roots = self.roots()
            simple: list[tuple[str, str, str]] = []
            for old, new in pairs:
                new_root = find_root(new, roots)
                if old == new:
                    continue
                if (
                    new_root is None
                    or not is_text(new)
                    or not self.catalog.under(old, limit=1)
                    or self.catalog.under(new, limit=1)
                ):
                    self._moved(old, new)  # the unusual cases keep their one-by-one handling
                else:
                    simple.append((old, new, new_root))
            if not simple:
                return
            renames = [(old, new) for old, new, _ in simple]
            stored = [(to_store(old), to_store(new)) for old, new in renames]
            _rename_many(self.vectors, stored)
            _rename_many(self.keywords, stored)
            if self.shadow is not None:
                _rename_many(self.shadow.vectors, stored)
                for old, new in renames:
                    self.shadow.rebase_written(old, new)
            with self.db.atomic():
                for old, new, new_root in simple:
                    self.catalog.rename(old, new, new_root)
                    follow_rename(self.catalog, old, new)
                    self.queue.drop_deletions_under(new)
                    self.queue.rename(old, new)
                    self.ocr.rename(old, new)

    def deleted(self, path: str) -> None:
        with self.lock:
            self.vectors.delete(to_store(path))
            self.keywords.delete(to_store(path))
            if self.shadow is not None:
                self.shadow.vectors.delete(to_store(path))
            with self.db.atomic():
                self.catalog.delete(path)
                self.queue.drop_under(path)
        self.changed()

    def sense_of(self, path: str) -> tuple[str | None, bool] | None:
        record = self.catalog.get(path)
        return (record.sense, record.pinned) if record else None

    def pin_sense(self, path: str, sense: str) -> None:
        root = find_root(path, self.roots()) or os.path.dirname(path)
        with self.db.atomic():
            self.catalog.ensure(path, root)
            self.catalog.set_sense(path, sense.strip(), pinned=True)
            self.catalog.forget_hash(path)
            self.queue.push(path, MANUAL)

    def restore_sense(self, path: str, sense: str | None, pinned: bool) -> None:
        with self.db.atomic():
            self.catalog.set_sense(path, sense, pinned=pinned)
            self.catalog.forget_hash(path)
            self.queue.push(path, MANUAL)

    def enqueue(self, path: str, priority: int) -> None:
        """Queue `path`, and catalogue a file inside a root at once (status queued, in the same write):
        a file an undo brings back from the trash then counts among the files the moment the undo
        returns, not only once it is read again (the sidebar read 173 of 174 files meanwhile)."""
        root = find_root(path, self.roots())
        with self.db.atomic():
            if root is not None and os.path.isfile(path) and is_text(path) and not is_skipped(path, root):
                self.catalog.ensure(path, root)
            self.queue.push(path, priority)

    # ---- roots --------------------------------------------------------------------------------
    def purge_root(self, root: str) -> None:
        """Forget a removed root: rows and vectors of every file beneath it (other roots inside stay)."""
        keep = [r for r in self.roots() if r != root and is_within(r, root)]
        if keep:
            for record in self.catalog.under(root):
                if not any(is_within(record.path, k) for k in keep):
                    self.deleted(record.path)
            return
        self.deleted(root)

    def queue_deletions(self, paths: list[str]) -> None:
        self.queue.push_many(paths, DELETION, action="delete")
