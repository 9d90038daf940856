"""The keyword index as the engine holds it: a `KeywordIndex` that heals itself when its file is damaged.

Everything in the keyword index can be rebuilt from the chunk texts the vector store keeps, so a damaged
DuckDB file (a fatal or internal error, a checksum that does not match, an index that lost rows) is no
reason to stop the app or to fail every search. On `StoreDamaged`, at open or from any call, the store:

1. closes the broken connection and moves the file aside as `keywords.corrupt-<UTC time>.duckdb` (kept
   for a bug report, never deleted);
2. opens a fresh, empty index in its place and repeats the call there (a write is the file's newest
   state, so it is kept; a search answers from what is rebuilt so far);
3. tells the person (a `notice` event now, and the start-up notices of `get_config`);
4. starts the rebuilder the index service registered (the chunk texts of every catalogued file, with no
   embedding) on a thread. At open no rebuilder is registered yet: the start-up repair sees an empty
   keyword index and refills it itself.

A second failure while opening the fresh index is raised as a plain `StoreError` (a full disk or a
read-only folder is not something a rebuild fixes), and after `MAX_HEALS` in one run damage is reported
rather than healed again, so a fault that comes back at once cannot turn into a loop of copies.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from engine.errors import StoreDamaged, StoreError
from engine.events import NOTICE, EventBus
from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.query import KeywordAnswer

log = logging.getLogger(__name__)

T = TypeVar("T")
Rebuilder = Callable[[Callable[[], bool]], int]  # rebuild(should_stop) -> files refilled
MAX_HEALS = 3


def quarantine_path(db_path: Path, when: float | None = None) -> Path:
    """`keywords.corrupt-20261201T071500Z.duckdb` beside `keywords.duckdb` (a counter if taken)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(when))
    candidate = db_path.with_name(f"{db_path.stem}.corrupt-{stamp}{db_path.suffix}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = db_path.with_name(f"{db_path.stem}.corrupt-{stamp}-{n}{db_path.suffix}")
    return candidate


class KeywordStore:
    """Same methods as `KeywordIndex`; see the module docstring for what happens on damage."""

    def __init__(self, db_path: Path, events: EventBus | None = None):
        self.db_path = Path(db_path)
        self._events = events
        self._swap = threading.RLock()
        self._rebuilder: Rebuilder | None = None
        self._rebuild_thread: threading.Thread | None = None
        self.rebuilt = threading.Event()  # set while no rebuild is pending or running (tests, soak bench)
        self.rebuilt.set()
        self.notices: list[str] = []
        self.quarantined: list[Path] = []
        self._closed = False
        try:
            self._index = KeywordIndex(self.db_path)
        except StoreDamaged as exc:
            self._index = self._replace(exc, None, rebuild_here=False)

    # ---- healing ------------------------------------------------------------------------------
    def set_rebuilder(self, rebuild: Rebuilder) -> None:
        """`rebuild(should_stop)` refills the current (fresh) index from the vector store; returns the
        files refilled."""
        self._rebuilder = rebuild

    @property
    def rebuilding(self) -> bool:
        thread = self._rebuild_thread
        return thread is not None and thread.is_alive()

    def _replace(
        self, exc: BaseException, broken: KeywordIndex | None, rebuild_here: bool = True
    ) -> KeywordIndex:
        """Set the damaged file aside and open a fresh index (once per broken index, whichever thread
        asks)."""
        with self._swap:
            if broken is not None and self._index is not broken:
                return self._index  # another thread healed it already
            if len(self.quarantined) >= MAX_HEALS:
                raise StoreError(
                    f"The keyword index at {self.db_path} was damaged again after {MAX_HEALS} "
                    f"rebuilds in this run ({_first_line(exc)}); restart SenseTree."
                ) from exc
            if broken is not None:
                with contextlib.suppress(Exception):
                    broken.close()
            kept = self._set_aside()
            try:
                fresh = KeywordIndex(self.db_path)
            except StoreError as again:
                raise StoreError(
                    f"The keyword index was damaged and a new one could not be created at "
                    f"{self.db_path}: {again.message}"
                ) from again
            self._index = fresh
            log.error(
                "keyword index damaged (%s); kept aside as %s and rebuilt from the stored chunks", exc, kept
            )
            self._tell(
                f"The keyword index was damaged; it was kept aside as {kept.name} and is being rebuilt "
                "from the indexed text (nothing is re-read or re-embedded). "
                "Keyword matches return as it fills."
            )
            if rebuild_here:
                self.rebuilt.clear()
                self._start_rebuild()
            return fresh

    def _set_aside(self) -> Path:
        target = quarantine_path(self.db_path)
        for suffix in ("", ".wal"):
            source = Path(str(self.db_path) + suffix)
            if source.exists():
                try:
                    os.replace(source, Path(str(target) + suffix))
                except OSError as err:
                    raise StoreError(
                        f"The keyword index at {self.db_path} is damaged and could not be moved "
                        f"aside ({err}); delete it to rebuild it."
                    ) from err
        self.quarantined.append(target)
        return target

    def _tell(self, message: str) -> None:
        self.notices.append(message)
        if self._events is not None:
            self._events.publish(NOTICE, {"message": message, "level": "warning"})

    def _start_rebuild(self) -> None:
        rebuild = self._rebuilder
        if rebuild is None:
            self.rebuilt.set()
            return
        thread = threading.Thread(
            target=self._run_rebuild, args=(rebuild,), name="sensetree-keyword-rebuild", daemon=True
        )
        self._rebuild_thread = thread
        thread.start()

    def _run_rebuild(self, rebuild: Rebuilder) -> None:
        try:
            files = rebuild(lambda: self._closed)
            log.warning("keyword index rebuilt: %d file(s) refilled from the stored chunks", files)
        except Exception:  # the next start's repair refills whatever this did not
            log.exception("keyword index rebuild stopped")
        finally:
            self.rebuilt.set()

    def _call(self, op: Callable[[KeywordIndex], T]) -> T:
        index = self._index
        try:
            return op(index)
        except StoreDamaged as exc:
            return op(self._replace(exc, index))
        except StoreError:
            if self._index is index or self._closed:
                raise
            return op(self._index)  # the index was swapped under this call: ask the fresh one

    # ---- the KeywordIndex surface -------------------------------------------------------------
    def upsert(self, path: str, chunks: Sequence[str]) -> None:
        self._call(lambda index: index.upsert(path, chunks))

    def upsert_many(self, files: Iterable[tuple[str, Sequence[str]]]) -> None:
        rows = list(files)  # may be replayed on a fresh index
        self._call(lambda index: index.upsert_many(rows))

    def delete(self, path: str) -> None:
        self._call(lambda index: index.delete(path))

    def rename(self, old: str, new: str) -> None:
        self._call(lambda index: index.rename(old, new))

    def rename_many(self, pairs: Sequence[tuple[str, str]]) -> None:
        self._call(lambda index: index.rename_many(pairs))

    def refresh_weights(self) -> None:
        self._call(lambda index: index.refresh_weights())

    def search(self, query: str, k: int = 50, scope: str | None = None) -> list[Hit]:
        return self._call(lambda index: index.search(query, k, scope))

    def search_with_text(
        self, query: str, k: int = 50, scope: str | None = None
    ) -> tuple[list[Hit], dict[ChunkKey, str]]:
        return self._call(lambda index: index.search_with_text(query, k, scope))

    def answer(self, query: str, k: int = 50, scope: str | None = None) -> KeywordAnswer:
        return self._call(lambda index: index.answer(query, k, scope))

    def name_scores(self, terms: frozenset[str], scope: str | None = None) -> dict[str, float]:
        return self._call(lambda index: index.name_scores(terms, scope))

    def folders(self, scope: str | None = None) -> list[str]:
        return self._call(lambda index: index.folders(scope))

    def beneath(self, scores: dict[str, float], scope: str | None = None) -> dict[str, float]:
        return self._call(lambda index: index.beneath(scores, scope))

    def texts(self, paths: Sequence[str]) -> dict[ChunkKey, str]:
        return self._call(lambda index: index.texts(paths))

    def query_reference(self, query: str) -> float:
        return self._call(lambda index: index.query_reference(query))

    def chunk_counts(self) -> dict[str, int]:
        return self._call(lambda index: index.chunk_counts())

    def stale_ratio(self) -> float:
        return self._call(lambda index: index.stale_ratio())

    def open_cursors(self) -> int:
        """Reader cursors open now (bounded by the live threads plus a small pool; the leak test)."""
        return self._index.open_cursors()

    def stats(self) -> dict[str, float]:
        return self._call(lambda index: index.stats())

    def generation(self) -> tuple[int, int]:
        """How many times the index was replaced, and its own generation: either changing means a search
        may read something else (retrieval/keyword_memo.py)."""
        index = self._index
        return len(self.quarantined), index.generation()

    def close(self) -> None:
        self._closed = True
        thread = self._rebuild_thread
        if thread is not None:
            thread.join(30)  # it stops at its next batch
        with self._swap:
            self._index.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]
