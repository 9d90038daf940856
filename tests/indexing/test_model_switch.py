"""Changing the embedding model re-embeds in the background and never leaves search without an index."""

from __future__ import annotations

import json
import threading

from engine.engine import Engine
from engine.events import INDEXING_PROGRESS
from engine.indexing.reembed import read_active
from tests.indexing.helpers import SAMPLE, write_docs


def start_engine(home, model="hashing-384", **kwargs) -> Engine:
    settings = home / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data.setdefault("embedding", {})["model"] = model
    settings.write_text(json.dumps(data), encoding="utf-8")
    return Engine(home, **kwargs)


def test_switching_the_model_reembeds_from_stored_chunks_and_swaps_when_complete(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = start_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        old_dir = engine.parts.vectors.directory
        engine.set_config({"embedding": {"model": "hashing-256"}})  # no background thread: runs to completion
        assert engine.parts.embedder.name == "hashing-256" and engine.parts.vectors.dim == 256
        assert read_active(engine.parts.vectors_dir) == "hashing-256"
        assert not old_dir.exists()
        assert engine.semantic_search("sourdough flour")[0].path == str(root / "recipes" / "bread.txt")
        assert engine.parts.vectors.chunk_counts() == engine.parts.keywords.chunk_counts()
    finally:
        engine.running.close()


def test_an_interrupted_switch_keeps_the_old_index_and_resumes_after_restart(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = start_engine(sensetree_home)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    engine.running.close()
    # the person picked another model, and SenseTree was closed before the new index was complete
    restarted = start_engine(sensetree_home, model="hashing-256", background=True)
    try:
        done = threading.Event()
        restarted.events.subscribe(
            lambda _t, p: done.set() if (p.get("reembedding") or {}).get("done") is True else None,
            INDEXING_PROGRESS,
        )
        assert restarted.parts.embedder.name in ("hashing-384", "hashing-256")
        assert restarted.semantic_search("Lisbon train")[0].path == str(root / "notes" / "travel.txt")
        assert done.wait(60) or restarted.parts.embedder.name == "hashing-256"
        assert read_active(restarted.parts.vectors_dir) == "hashing-256"
        assert restarted.semantic_search("Lisbon train")[0].path == str(root / "notes" / "travel.txt")
    finally:
        restarted.running.close()
