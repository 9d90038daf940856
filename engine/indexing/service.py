"""The index as the rest of the app sees it: roots, progress, the queue, senses and per-file details.

It owns the pieces of index maintenance (catalog, queue, indexer, worker, watcher) and answers the
indexing IPC commands; the Engine only forwards to it.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.config import Settings
from engine.db import Database
from engine.errors import InvalidInput, NotFound, StoreDamaged
from engine.events import NOTICE, EventBus
from engine.indexing.catalog import Catalog
from engine.indexing.extract_process import ExtractionProcess
from engine.indexing.folder_checks import checked_root
from engine.indexing.indexer import Indexer
from engine.indexing.keyword_rebuild import rebuild_keywords
from engine.indexing.media_phase import media_endpoints
from engine.indexing.pathtext import to_store
from engine.indexing.prepared import IndexOptions
from engine.indexing.progress import IndexingProgress, measure
from engine.indexing.queue import MANUAL, WorkQueue
from engine.indexing.readings import readings
from engine.indexing.repair import RepairReport, repair
from engine.indexing.results import (
    FileSense,
    PathDetails,
    PinnedSense,
    QueueRow,
    Requalifying,
    SenseRow,
    Thumbnail,
)
from engine.indexing.thumbnails import thumbnail
from engine.indexing.watch import RootWatcher
from engine.indexing.worker import IndexWorker
from engine.paths import normalize
from engine.results import Done
from engine.retrieval.keyword.change_count import REFRESH_STALE
from engine.retrieval.results import SearchResult
from engine.roots import SENSES_LIMIT, Roots

if TYPE_CHECKING:
    from engine.embed import Embedder
    from engine.indexing.store_sync import Keywords
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)


class IndexService:
    def __init__(
        self,
        db: Database,
        events: EventBus,
        keywords: Keywords,
        vectors: VectorIndex,
        embedder: Embedder,
        settings: Callable[[], Settings],
        save_roots: Callable[[list[str]], None],
        options: Callable[[], IndexOptions],
        data_dir: str,
        bounds: Roots,
        extraction: ExtractionProcess | None = None,
    ):
        self.db, self.events, self.settings = db, events, settings
        self.keywords = keywords
        self._save_roots = save_roots
        self.data_dir = normalize(data_dir)
        self.bounds = bounds  # what a path from outside may name (engine/roots.py)
        self.catalog = Catalog(db)
        self.queue = WorkQueue(db, settings().indexing.max_attempts)
        self.indexer = Indexer(
            *(db, self.catalog, self.queue, keywords, vectors, embedder, self.roots, options),
            extraction=extraction,
        )
        self.worker = IndexWorker(
            self.indexer,
            self.queue,
            events,
            self.indexing_stats,
            self.maintenance,
            lambda: media_endpoints(settings()),
        )
        self.watcher = RootWatcher(
            self.queue, self.indexer.moved, self.roots, self.worker.notify, settings().indexing.debounce_s
        )
        self.worker.set_paused(settings().indexing.paused)
        if hasattr(
            keywords, "set_rebuilder"
        ):  # a KeywordStore: refill it from the vectors if it is ever replaced
            keywords.set_rebuilder(lambda should_stop: rebuild_keywords(self.indexer, keywords, should_stop))

    @property
    def vectors(self) -> VectorIndex:
        return self.indexer.vectors

    # ---- lifecycle ----------------------------------------------------------------------------
    def startup_repair(self) -> RepairReport:
        # Never purge on the word of settings that were just defaulted (no file, a file kept aside, no
        # `roots` key): the Engine keeps the catalog's roots then, and the person removes a folder explicitly.
        trusted = not self.settings().roots_defaulted
        return repair(
            self.catalog, self.queue, self.keywords, self.vectors, self.roots(), roots_trusted=trusted
        )

    def start_background(self) -> None:
        """Watch every root, re-scan them for changes made while we were closed, and start working."""
        if self.settings().indexing.watch:
            self.watcher.start()
            for root in self.roots():
                self.watcher.watch(root)
        for root in self.roots():
            self.worker.request_scan(root)
        self.worker.start()

    def stop(self) -> None:
        self.watcher.stop()
        self.worker.stop()
        self.indexer.extraction.stop()

    def drain(self) -> int:
        """Run every scan and job that is ready now, on this thread (CLI and tests)."""
        return self.worker.run_pending()

    def maintenance(self) -> None:
        """Fold recent writes into the search structures once the queue is quiet."""
        if self.keywords.stale_ratio() > REFRESH_STALE:
            self.keywords.refresh_weights()
        try:
            self.vectors.optimize()
        except StoreDamaged as exc:
            self._start_vectors_over(exc)

    def _start_vectors_over(self, exc: StoreDamaged) -> None:
        """A vector table found damaged while the app runs (a data file the start-up probe does not read
        whole): kept aside and started anew like at start-up, every file embedded again from its keyword
        rows; search answers by keyword meanwhile (issue 31)."""
        with self.indexer.lock:
            aside = self.vectors.start_over()
            self.db.execute("UPDATE files SET semantic = 'pending' WHERE semantic = 'done'")
        log.error("vector index damaged while running (%s); kept as %s, embedding again", exc, aside)
        self.events.publish(
            NOTICE,
            {
                "message": f"The search index was damaged; it was kept as {aside} and is rebuilt from the "
                "indexed text. Search answers by keyword meanwhile.",
                "level": "warning",
            },
        )
        self.worker.notify()

    # ---- roots --------------------------------------------------------------------------------
    def roots(self) -> list[str]:
        return list(self.settings().roots)

    def get_roots(self) -> list[str]:
        return self.roots()

    def add_indexed_folder(self, path: str) -> list[str]:
        root = checked_root(path, self.data_dir)  # absolute, no pseudo file system, not our data
        if not os.path.isdir(root):
            raise NotFound(f'"{path}" is not a folder that exists on this computer.')
        roots = self.roots()
        if self.bounds.root_of(root) is not None:  # indexed already, itself or inside a larger root
            self.worker.request_scan(root)
            return roots
        absorbed = self.bounds.beneath(root)  # a parent absorbs its sub-roots
        roots = [r for r in roots if normalize(r) not in absorbed] + [root]
        self._save_roots(roots)
        if self.watcher._started:
            self.watcher.watch(root)
        self.worker.request_scan(root)
        return roots

    def remove_indexed_folder(self, path: str) -> list[str]:
        root = normalize(path)
        roots = self.roots()
        if root not in roots:
            raise NotFound(f'"{path}" is not one of the indexed folders.')
        roots.remove(root)
        self._save_roots(roots)
        self.watcher.unwatch(root)
        self.worker.request_purge(root)  # the running batch stops; the rows go in the background
        return roots

    # ---- progress and queue -------------------------------------------------------------------
    def indexing_stats(self) -> IndexingProgress:
        """The progress model (progress.py): what the page, the CLI and events all read."""
        return measure(
            self.catalog,
            self.queue,
            self.roots(),
            self.indexer.tracker,
            paused=self.worker.paused,
            current=self.worker.current,
            removing=self.worker.removing,
            scanning=self.worker.scanning,
        )

    def indexing_queue(self, limit: int = 100) -> list[QueueRow]:
        return self.queue.listing(max(1, min(int(limit), 1000)))

    def set_indexing_paused(self, paused: bool) -> Done:
        self.worker.set_paused(bool(paused))
        return Done()

    def reindex_path(self, path: str) -> Done:
        target = self.bounds.require(path)
        if os.path.isdir(target):
            with self.db.atomic():
                for record in self.catalog.under(target):
                    self.catalog.forget_stat(record.path)
                    self.queue.push(record.path, MANUAL)
            self.worker.request_scan(target)
        elif os.path.isfile(target):
            self.catalog.forget_stat(target)
            self.queue.push(target, MANUAL)
        else:
            raise NotFound(f'"{path}" no longer exists.')
        self.worker.notify()
        return Done()

    def retry_indexing(self, path: str | None = None) -> Done:
        target = normalize(path) if path else None
        self.queue.retry(target)
        self.worker.notify()
        return Done()

    # ---- senses -------------------------------------------------------------------------------
    def qualify_file(self, path: str) -> FileSense:
        """Ask for a fresh sense now (a pinned sense is a person's word and is kept)."""
        target = self.bounds.require(path)
        record = self.catalog.get(target)
        if record is None or not os.path.isfile(target):
            raise NotFound(f'"{path}" is not an indexed file yet; add its folder or wait for indexing.')
        if not record.pinned:
            from engine.indexing.extract import extract
            from engine.indexing.qualify import qualify

            opts = self.indexer.options()
            extracted = extract(target, max_chars=opts.max_chars)
            sense = qualify(
                name=record.name,
                text=extracted.text,
                doc_type=extracted.doc_type,
                title=extracted.title,
                prompt=opts.qualify_prompt,
                complete=opts.complete,
            )
            with self.db.atomic():
                self.catalog.set_sense(target, sense.text, pinned=False)
                self.catalog.forget_hash(target)
                self.queue.push(target, MANUAL)
            self.worker.notify()
            record = self.catalog.get(target)
        assert record is not None
        return FileSense(path=target, sense=record.sense)

    def qualify_folder(self, path: str) -> Requalifying:
        """Re-qualify every unpinned file beneath a folder, through the queue (a big folder takes a while)."""
        target = self.bounds.require(path)
        count = 0
        with self.db.atomic():
            for record in self.catalog.under(target):
                if not record.pinned:
                    self.catalog.forget_hash(record.path)
                    self.queue.push(record.path, MANUAL)
                    count += 1
        self.worker.notify()
        return Requalifying(count=count)

    def set_file_summary(self, path: str, summary: str) -> PinnedSense:
        target = self.bounds.require(path)
        if not summary or not summary.strip():
            raise InvalidInput("A sense cannot be empty; write a sentence or two about the file.")
        if not os.path.isfile(target):
            raise NotFound(f'"{path}" is not a file that exists.')
        self.indexer.pin_sense(target, summary)
        self.worker.notify()
        return PinnedSense(path=target, sense=summary.strip())

    def read_semantics(self, path: str, recursive: bool = False, limit: int = SENSES_LIMIT) -> list[SenseRow]:
        target = self.bounds.require(path)
        records = self.catalog.under(target, limit=None if not recursive else limit)
        if not recursive:
            records = [r for r in records if r.path == target or os.path.dirname(r.path) == target]
        return [
            SenseRow(path=r.path, sense=r.sense, doc_type=r.doc_type, pinned=r.pinned)
            for r in records[:limit]
        ]

    def file_thumbnail(self, path: str) -> Thumbnail | None:
        """A small picture of an image inside the roots (thumbnails.py); None for anything else."""
        target = self.bounds.require(path)
        if not os.path.isfile(target):
            raise NotFound(f'"{path}" does not exist.')
        data_url = thumbnail(target, os.path.join(self.data_dir, "thumbnails"))
        return None if data_url is None else Thumbnail(path=target, data_url=data_url)

    def with_pages(self, hits: list[SearchResult]) -> list[SearchResult]:
        """Each hit in a scanned PDF with the page its snippet was read from by OCR (issue 33)."""
        return [self._with_page(hit) if hit.path.lower().endswith(".pdf") else hit for hit in hits]

    def _with_page(self, hit: SearchResult) -> SearchResult:
        record = self.catalog.get(hit.path)
        digest = record.hash if record else None
        page = self.indexer.ocr.page_of(digest, hit.snippet, hit.highlights) if digest else None
        return hit if page is None else dataclasses.replace(hit, page=page)

    def path_details(self, path: str) -> PathDetails:
        target = self.bounds.require(path)
        if not os.path.lexists(target):
            raise NotFound(f'"{path}" does not exist.')
        st = os.stat(target)
        record = self.catalog.get(target)
        queued = self.db.one("SELECT state, error FROM queue WHERE path = ?", (to_store(target),))
        details: dict[str, object] = {  # the catalog's row, when there is one, overrides these defaults
            "path": target,
            "name": os.path.basename(target),
            "root": self.bounds.root_of(target),
            "sense": None,
            "pinned": False,
            "doc_type": None,
            "status": "not indexed",
            "error": None,
            "note": None,
            "chunks": 0,
        }
        if record is not None:
            details.update({k: v for k, v in record.to_dict().items() if k not in ("size", "mtime", "hash")})
        if queued and queued["state"] == "failed":  # the queue's reason is the newest (the catalog may lag)
            details.update(status="failed", error=queued["error"] or details["error"])
        is_dir = os.path.isdir(target)
        if is_dir:
            details.update(status="folder", files=len(self.catalog.under(target)))
        details.update(
            is_dir=is_dir,
            size=st.st_size,
            mtime=st.st_mtime,
            queued=queued is not None and queued["state"] == "queued",  # a failed row waits for Retry
        )
        if not is_dir:
            digest = record.hash if record else None
            details["readings"] = readings(target, digest, self.indexer.ocr, self.indexer.media) or None
        return PathDetails.model_validate(details)
