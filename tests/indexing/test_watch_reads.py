"""Reading the files of a watched root (the indexer does, for every file) wakes no part of the watcher."""

from __future__ import annotations

import sys
import threading

import pytest

from engine.indexing import watch
from engine.indexing.watch import RootWatcher


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_reading_files_in_a_watched_root_delivers_no_event_to_the_handler(tmp_path, monkeypatch):
    root = tmp_path / "Docs"
    root.mkdir()
    read = root / "read.txt"
    read.write_text("some text", encoding="utf-8")
    marker = root / "marker.txt"
    seen: list[tuple[str, str]] = []
    marker_seen = threading.Event()
    handle = watch._Handler.on_any_event

    def spy(self, event):
        seen.append((event.event_type, event.src_path))
        if event.src_path == str(marker):
            marker_seen.set()
        handle(self, event)

    monkeypatch.setattr(watch._Handler, "on_any_event", spy)
    watcher = RootWatcher(None, lambda _old, _new: None, lambda: [str(root)], lambda: None, debounce_s=600)  # type: ignore[arg-type]
    watcher.start()
    try:
        watcher.watch(str(root))
        for _ in range(3):
            assert read.read_text(encoding="utf-8") == "some text"
        marker.write_text("written after the reads", encoding="utf-8")  # inotify keeps one folder's order
        assert marker_seen.wait(20)
    finally:
        watcher.stop()
    assert [kind for kind, path in seen if path == str(read)] == []
