"""A reasoning model's thinking shows as a collapsed "Thinking" step in the trace while the answer
streams; it never enters the answer, and the stored conversation keeps no trace of it."""

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

THOUGHT = "The person asks about invoices; I will answer briefly."


def _thinking_stream(release: threading.Event) -> Iterator[dict[str, Any]]:
    """llama.cpp's `--reasoning-format deepseek` shape: thinking in `reasoning_content`, then the answer
    in `content`, held open half-way (still streaming) until `release` is set."""
    yield chunk({"role": "assistant", "content": None})
    for word in THOUGHT.split(" "):
        yield chunk({"reasoning_content": word + " "})
    yield chunk({"content": "The invoices "})
    yield chunk({"content": "are "})
    release.wait(30)
    yield chunk({"content": "all paid."})
    yield chunk({}, "stop")


def test_thinking_is_a_collapsed_trace_step_while_the_answer_streams_and_is_never_stored(tmp_path, browser):
    expect = playwright_api.expect
    release = threading.Event()
    with FakeOpenAI([Raw(stream=_thinking_stream(release))]) as endpoint:
        _settings(tmp_path / "home", endpoint.base_url)
        engine = Engine(tmp_path / "home")
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            _ask(page, "Are my invoices paid?")
            answer = page.get_by_test_id("chat-answer").last
            expect(answer).to_contain_text("The invoices are", timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-stop")).to_be_visible()  # still streaming
            step = page.get_by_test_id("thinking-step").last
            expect(step).to_contain_text("Thinking")
            expect(step.locator("details")).not_to_have_attribute("open", "")
            expect(page.get_by_test_id("thinking-text").last).to_be_hidden()  # collapsed
            expect(answer).not_to_contain_text("person asks")
            _shot(page, "chat-8-thinking-1280x800")
            step.locator("summary").click()
            expect(page.get_by_test_id("thinking-text").last).to_have_text(THOUGHT + " ")
            release.set()
            expect(page.get_by_test_id("chat-send")).to_be_visible(timeout=WAIT_MS)
            expect(answer).to_have_text("The invoices are all paid.")
            expect(page.get_by_test_id("thinking-step")).to_have_count(1)  # kept in view after the turn
            conversation = engine.get_conversation(engine.list_conversations()[0].conversation_id)
            assert conversation.turns[0].answer == "The invoices are all paid."
            assert "person asks" not in conversation.model_dump_json()
            assert errors == []
        finally:
            release.set()
            server.stop()
            engine.running.close()
