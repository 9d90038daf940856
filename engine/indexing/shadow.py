"""The vector index being built for the next embedding model, which the indexer mirrors its writes into.

Its own module because both sides hold it: the re-embedder (reembed.py) builds it, and the indexer's sync
side (store_sync.py) writes into it; here, neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.embed import Embedder
from engine.paths import is_within, rebase

if TYPE_CHECKING:
    from engine.retrieval.vectors import VectorIndex


@dataclass
class Shadow:
    """The index being built for the next model; the indexer mirrors its writes into it."""

    embedder: Embedder
    vectors: VectorIndex
    written: set[str]

    def rebase_written(self, old: str, new: str) -> None:
        """Files already copied under `old` now live under `new`."""
        moved = {p for p in self.written if is_within(p, old)}
        self.written -= moved
        self.written |= {rebase(p, old, new) for p in moved}
