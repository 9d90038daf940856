"""Esc stops a running answer in the page: the engine stops the turn (stop_chat), the words that had
streamed stay, marked stopped, in the page and in the stored conversation."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.e2e.test_chat_journey import _ask, _settings
from tests.fake_openai import FakeOpenAI, Raw, chunk

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page  # noqa: E402,F401 (the same Chromium fixture)


def _slow_stream(release: threading.Event) -> Iterator[dict[str, Any]]:
    """Two words, then the stream held open (a model still thinking) until `release` is set."""
    yield chunk({"content": "The invoices "})
    yield chunk({"content": "are "})
    release.wait(30)
    yield chunk({"content": "never finished."})
    yield chunk({}, "stop")


def test_escape_stops_the_turn_in_the_engine_and_keeps_the_partial_answer(tmp_path, browser):
    expect = playwright_api.expect
    release = threading.Event()
    with FakeOpenAI([Raw(stream=_slow_stream(release))]) as endpoint:
        _settings(tmp_path / "home", endpoint.base_url)
        engine = Engine(tmp_path / "home")
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            _ask(page, "Summarise my invoices")
            answer = page.get_by_test_id("chat-answer").last
            expect(answer).to_contain_text("The invoices are", timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-stop")).to_be_visible()
            page.keyboard.press("Escape")
            # the stream is held open until the test ends: only the stop can show the note
            expect(page.get_by_test_id("stopped-note")).to_be_visible(timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-send")).to_be_visible()
            expect(answer).to_contain_text("The invoices are")
            _shot(page, "chat-7-stopped-1280x800")
            turn = engine.get_conversation(engine.list_conversations()[0].conversation_id).turns[0]
            assert (turn.status, turn.answer) == ("stopped", "The invoices are ")
            assert len(endpoint.requests) == 1
            assert errors == []
        finally:
            release.set()
            server.stop()
            engine.running.close()
