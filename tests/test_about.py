"""What the app says about itself: its version is looked up once per process (the lookup walks sys.path;
`app_version` is the page's command that does no work, and the latency bench's floor)."""

from __future__ import annotations

import importlib.metadata

from engine import about


def test_the_version_is_looked_up_once_however_often_it_is_asked(monkeypatch):
    looked_up: list[str] = []

    def version(name: str) -> str:
        looked_up.append(name)
        return "9.9.9"

    about.app_version.cache_clear()
    monkeypatch.setattr(importlib.metadata, "version", version)
    try:
        assert [about.app_version() for _ in range(3)] == ["9.9.9"] * 3
        assert looked_up == ["sensetree"]
    finally:
        about.app_version.cache_clear()
