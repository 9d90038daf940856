"""Builders shared by the indexing tests: a real engine on the hashing embedder, and small folders."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from engine.engine import Engine
from engine.indexing.embed import HashingEmbedder


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
    engine.drain()
    return root, engine


@contextlib.contextmanager
def indexed_engine(root: Path, home: Path, **kwargs) -> Iterator[Engine]:
    """An engine on the hashing embedder with `root` added and fully indexed, closed afterwards."""
    engine = make_engine(home, **kwargs)
    try:
        engine.add_indexed_folder(str(root))
        engine.drain()
        yield engine
    finally:
        engine.close()
