"""The indexer: turns one queued path into catalog + keyword rows (the *keyword phase*), and keeps the
three stores in step when files move, vanish or get a corrected sense (its base, store_sync.py; what a
file is before its write: prepared.py). Vectors follow in the
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

import errno
import functools
import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.db import Database
from engine.embed import Embedder
from engine.errors import ExtractionError
from engine.indexing.catalog import PENDING, Catalog, FileRecord, FileStatus
from engine.indexing.crawl import FILE_TOO_LONG
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
from engine.indexing.extract_process import ExtractionProcess
from engine.indexing.file_hash import file_hash, stamp
from engine.indexing.media_phase import MediaStore
from engine.indexing.ocr_phase import OcrStore, has_picture_text
from engine.indexing.pathtext import is_text, printable, to_store
from engine.indexing.prepared import (
    IndexOptions,
    Prepared,
    chunk_inputs,
    had_vectors,
    present,
    same_content,
    same_version,
)
from engine.indexing.progress import ProgressTracker
from engine.indexing.qualify import Complete, qualify
from engine.indexing.queue import INTERRUPTED, Job, WorkQueue
from engine.indexing.read_ahead import Read, ReadAhead, Reader, read_file
from engine.indexing.store_sync import StoreSync
from engine.paths import RootFinder

if TYPE_CHECKING:
    from concurrent.futures import Future

    from engine.indexing.store_sync import Keywords
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

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


class Indexer(StoreSync):
    """Processes queue jobs (the keyword phase); its base keeps the stores in step with moves and
    deletions (the IndexSync protocol the action executor calls, store_sync.py)."""

    def __init__(
        self,
        db: Database,
        catalog: Catalog,
        queue: WorkQueue,
        keywords: Keywords,
        vectors: VectorIndex,
        embedder: Embedder,
        roots: Callable[[], list[str]],
        options: Callable[[], IndexOptions],
        ocr: OcrStore | None = None,
        media: MediaStore | None = None,
        extraction: ExtractionProcess | None = None,
    ):
        super().__init__(db, catalog, queue, keywords, vectors, roots, ocr, media)
        self.embedder, self.options = embedder, options
        # PDF, DOCX, HTML… are read in a second process where that helps (extract_process.py)
        self.extraction = extraction or ExtractionProcess(enabled=False)
        self.tracker = ProgressTracker()  # current file and rates per phase (progress.py)
        self._write_s = 0.0  # what the last keyword-phase write took (flush_after)
        # the next files of a batch are read while these are written (read_ahead.py)
        self._ahead = ReadAhead()

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
        if any(self.extraction.handles(path) for path in ahead):
            self.extraction.start()  # its imports run while the batch's first files are read here
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
                # each folder's symlinks resolved once a group: a move or a plan waits for the lock
                roots = RootFinder()
                ready: list[Prepared] = []
                owners: list[int] = []
                group_s = flush_after(self._write_s)
                while pending and not stop() and time.monotonic() - began < group_s:
                    at, job = pending.pop(0)
                    self.tracker.working("keyword", printable(job.path))
                    outcome = self._prepare(job, roots)
                    if isinstance(outcome, Prepared):
                        ready.append(outcome)
                        owners.append(at)
                    statuses[at] = outcome.status if isinstance(outcome, Prepared) else outcome
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
            here = functools.partial(extract, max_chars=opts.max_chars)  # `extract` as it is now (tests)
            return read_file(path, opts.max_chars, here, file_hash, wanted, submit)

        def submit(path: str) -> Future[Extracted] | None:  # read by the second process, where it reads
            return self.extraction.submit(path, opts.max_chars)

        return read

    def _store_or_isolate(self, ready: list[Prepared]) -> set[str]:
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

    def _prepare(self, job: Job, roots: RootFinder) -> Prepared | str:
        root = roots.find_root(job.path, self.roots())
        if root is None or job.action == "delete" or not present(job.path):
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

    def _read_file(self, path: str, root: str) -> Prepared | str:
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
        extracted = self.media.with_media(path, digest, extracted, opts.media)
        pinned = known.sense if known and known.pinned and known.sense else None
        # the extractive sense now; a model-written one follows in the semantic phase
        sense, doc_type, stored = self.chunks_for(path, extracted, opts, pinned, complete=None)
        readable = extracted.text.strip() or has_picture_text(extracted)
        status = FileStatus.DONE if readable else FileStatus.SKIPPED
        return Prepared(
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
            had_vectors(known),
        )

    def _folder_block(
        self, path: str, root: str, st: os.stat_result, known: FileRecord | None
    ) -> Prepared | str:
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
        return Prepared(
            *head, [f"[{FOLDER_TYPE}] {text}"], FileStatus.SKIPPED, FOLDER_NOTE, had_vectors(known)
        )

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

    def _store(self, ready: list[Prepared]) -> None:
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

    def _extract(self, path: str, size: int, opts: IndexOptions) -> Extracted:
        if size > opts.max_file_bytes:
            mb = size / 1_000_000
            note = (
                f"Catalogued by name only: {mb:,.0f} MB is over the {opts.max_file_bytes / 1e6:,.0f} MB limit"
            )
            return Extracted(text="", doc_type="large", title=None, truncated=True, note=note)
        return self.extraction.extract(path, opts.max_chars, here=extract)
