"""An MCP call waiting for the person survives a page reload: its approval card comes back (from
`list_pending_tool_calls`) in the turn that asked, with no empty answer bubble under it, the answer
given there counts, and the turn's answer shows once the engine has finished it."""

from __future__ import annotations

from bridge import Api
from bridge.server import start_server
from tests.e2e.test_approval_journey import _chat, _shot, _start, notes_over_stdio
from tests.e2e.test_browser_journey import WAIT_MS, browser, open_page, playwright_api  # noqa: F401 (fixture)
from tests.fake_openai import FakeOpenAI, Reply

EMPTY_BUBBLES = """() => [...document.querySelectorAll('.msg.assistant .bubble')]
  .filter((b) => b.offsetParent && !b.innerText.trim()).length"""


def test_a_waiting_approval_card_comes_back_after_a_reload_and_its_answer_counts(tmp_path, browser):
    expect = playwright_api.expect
    docs, servers = notes_over_stdio(tmp_path)
    write = ("mcp__files__write_note", {"name": "todo.txt", "text": "HACKED"})
    replies = [Reply(tool_calls=[write]), Reply(content="I did not change your note.")]
    with FakeOpenAI(replies) as endpoint:
        engine = _start(tmp_path, endpoint, docs, mcpServers=servers)
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            _chat(page, "Rewrite my todo note")
            card = page.get_by_test_id("approval-card")
            expect(card).to_be_visible(timeout=WAIT_MS)
            assert page.evaluate(EMPTY_BUBBLES) == 0  # no empty bubble with a caret under the card

            page.reload()
            card = page.get_by_test_id("approval-card")
            expect(card).to_be_visible(timeout=WAIT_MS)
            expect(card).to_contain_text("write_note")
            assert page.evaluate(EMPTY_BUBBLES) == 0
            _shot(page, "reloaded-card")
            card.get_by_test_id("approval-deny").click()
            expect(card.get_by_test_id("approval-state")).to_contain_text("Denied", timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-answer").last).to_contain_text(
                "I did not change your note.", timeout=WAIT_MS
            )
            assert (docs / "todo.txt").read_text() == "buy milk\n"
            assert engine.list_pending_tool_calls() == []
            assert errors == []
        finally:
            server.stop()
            engine.running.close()
