"""Esc stops a running answer in the page: the engine stops the turn (stop_chat), the words that had
streamed stay, marked stopped, in the page and in the stored conversation."""

from __future__ import annotations

import http.server
import json
import threading

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.e2e.openai_endpoint import ScriptedEndpoint, _chunk, _handler_for
from tests.e2e.test_chat_journey import _ask, _settings

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page  # noqa: E402,F401 (the same Chromium fixture)


class SlowEndpoint(ScriptedEndpoint):
    """Streams two words, then holds the stream open (a model still thinking) until `release` is set."""

    def __init__(self) -> None:
        super().__init__([])
        self.release = threading.Event()
        self._server.RequestHandlerClass = _slow_handler(self)


def _slow_handler(endpoint: SlowEndpoint) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(_handler_for(endpoint)):  # type: ignore[misc]  # GET /v1/models as the scripted endpoint
        def do_POST(self) -> None:
            endpoint.next_reply(
                json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            )
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for word in ("The invoices ", "are "):
                self.wfile.write(_chunk({"content": word}))
            self.wfile.flush()
            endpoint.release.wait(30)
            self.wfile.write(
                _chunk({"content": "never finished."}) + _chunk({}, "stop") + b"data: [DONE]\n\n"
            )

    return Handler


def test_escape_stops_the_turn_in_the_engine_and_keeps_the_partial_answer(tmp_path, browser):
    expect = playwright_api.expect
    with SlowEndpoint() as endpoint:
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
            expect(page.get_by_test_id("stopped-note")).to_be_visible(timeout=5_000)
            expect(page.get_by_test_id("chat-send")).to_be_visible()
            expect(answer).to_contain_text("The invoices are")
            _shot(page, "chat-7-stopped-1280x800")
            turn = engine.get_conversation(engine.list_conversations()[0]["conversation_id"])["turns"][0]
            assert (turn["status"], turn["answer"]) == ("stopped", "The invoices are ")
            assert len(endpoint.requests) == 1
            assert errors == []
        finally:
            endpoint.release.set()
            server.stop()
            engine.close()
