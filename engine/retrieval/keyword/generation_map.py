"""A bounded map whose entries hold for one write generation of the keyword index (KeywordIndex.generation).

The keyword index keeps several answers that stay true until the next write: a query's terms
(query.QueryTermCache) and the rows of recently found chunks (chunk_rows.py). Each needs the same three
rules, kept here once: an entry read at a generation older than the newest one seen is never stored (a
write ended while it was read, so it may be stale); the first use at a newer generation forgets every
entry; and the map is bounded (the oldest half goes when it fills).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class GenerationMap(Generic[K, V]):
    """Key → value, for one write generation (module docstring)."""

    def __init__(self, kept: int):
        self._kept = kept
        self._lock = threading.Lock()
        self._entries: dict[K, V] = {}
        self._generation = -1

    def _at(self, generation: int) -> bool:
        """Move to `generation` if it is newer (forgetting every entry); whether it is the current one.
        Called under the lock."""
        if generation > self._generation:
            self._entries, self._generation = {}, generation
        return generation == self._generation

    def get_many(self, keys: Iterable[K], generation: int) -> dict[K, V]:
        """The kept entries of `keys` read at `generation` (none once a write has ended since)."""
        with self._lock:
            if not self._at(generation):
                return {}
            entries = self._entries
            return {key: entries[key] for key in keys if key in entries}

    def get(self, key: K, generation: int) -> V | None:
        return self.get_many((key,), generation).get(key)

    def put_many(self, entries: Mapping[K, V], generation: int) -> None:
        """Keep entries read at `generation`, unless a write has ended since (then they may be stale)."""
        with self._lock:
            if not self._at(generation):
                return
            if len(self._entries) + len(entries) > self._kept:
                for old in list(self._entries)[: max(len(self._entries) // 2, len(entries))]:
                    del self._entries[old]
            self._entries.update(entries)

    def put(self, key: K, generation: int, value: V) -> None:
        self.put_many({key: value}, generation)
