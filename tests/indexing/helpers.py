"""Builders shared by the indexing tests: a real engine on the hashing embedder, and small folders."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from engine.embed import HashingEmbedder
from engine.engine import Engine


def make_engine(home: Path, **kwargs) -> Engine:
    return Engine(home, embedder=HashingEmbedder(), **kwargs)


def write_docs(folder: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


SAMPLE = {
    "invoices/acme-2024.txt": (
        "Invoice 1042 from ACME Corporation to Jane Doe for 3 anvils, total 1,250 euros, due March 2024."
    ),
    "notes/garden.md": (
        "# Garden plan\n\nTomatoes go along the south fence. Basil between them keeps pests away."
    ),
    "notes/travel.txt": "Train to Lisbon on 12 May. Hotel booked near Alfama; museum passes for two days.",
    "recipes/bread.txt": (
        "Sourdough bread: 500 g flour, 350 g water, 100 g starter, 10 g salt. Bake at 240 degrees."
    ),
}


def indexed_sample(tmp_path: Path, home: Path, **kwargs) -> tuple[Path, Engine]:
    """The SAMPLE folder written under tmp_path, added as a root and fully indexed."""
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(home, **kwargs)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    return root, engine


@contextlib.contextmanager
def indexed_engine(root: Path, home: Path, **kwargs) -> Iterator[Engine]:
    """An engine on the hashing embedder with `root` added and fully indexed, closed afterwards."""
    engine = make_engine(home, **kwargs)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        yield engine
    finally:
        engine.running.close()


class GatedEmbedder(HashingEmbedder):
    """A hashing embedder whose every model call waits until the test lets one through, so a test steps
    the semantic phase batch by batch instead of racing a clock. `release()` lets the next call run;
    `open()` lets every later call run (call it before closing the engine)."""

    batch_size = 0  # one call per semantic batch

    def __init__(self, bound_s: float = 30.0) -> None:
        super().__init__()
        self.bound_s = bound_s
        self.calls = threading.Semaphore(0)
        self.opened = threading.Event()

    def embed(self, texts: list[str]):
        if not self.opened.is_set() and not self.calls.acquire(timeout=self.bound_s):
            raise TimeoutError("GatedEmbedder: the test never released this batch")
        return super().embed(texts)

    def release(self) -> None:
        self.calls.release()

    def open(self) -> None:
        self.opened.set()
        self.calls.release(1_000)
