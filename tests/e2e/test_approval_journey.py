"""Nothing changes without the person's click, in a real browser against a real `serve` over a real Engine.

- An MCP write tool (a real stdio server) shows the approval card in the chat trace; Deny leaves the
  file unchanged; Always allow is visible in Settings → MCP and can be removed there.
- A draft proposed in a page that is then reloaded is reviewable from History and can be approved;
  every outcome of apply_action_plan / undo_transaction renders as what it is (banner class and text):
  applied, refused (target appeared, source changed: red, reasons as a list, never "Applied"),
  failed and rolled back, undone, undo refused; expired drafts are listed and cannot be reviewed; a
  rollback that did not finish offers Retry rollback.

Debian's Chromium drives the page (never a downloaded browser); the model is a scripted
OpenAI-compatible endpoint on 127.0.0.1. Screenshots land in test-artifacts/ (gitignored).
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from bridge import Api
from bridge.server import start_server
from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.txn.model import ActionPlan
from engine.txn.store import DRAFT_TTL_S
from tests.agent.approval_support import STDIO_SERVER
from tests.e2e.test_browser_journey import ARTIFACTS, WAIT_MS, browser, open_page, playwright_api  # noqa: F401 (fixture)
from tests.fake_openai import FakeOpenAI, Reply

LONG_TEXT = "HACKED " * 60


def _shot(target: Any, name: str) -> None:
    """A screenshot of the page, or of one section of it (Settings scrolls inside its own pane)."""
    ARTIFACTS.mkdir(exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / f"approval-{name}.png"))


def _start(tmp_path: Path, endpoint: FakeOpenAI, docs: Path, **extra: Any) -> Engine:
    home = tmp_path / "home"
    home.mkdir()
    settings = {
        "embedding": {"model": "hashing-384"},
        "indexing": {"qualify_with_model": False},
        "reasoning": {"enabled": True, "base_url": endpoint.base_url, "model": "scripted", "max_retries": 0},
        **extra,
    }
    (home / "settings.json").write_text(json.dumps(settings))
    engine = Engine(home, embedder=HashingEmbedder())
    engine.add_indexed_folder(str(docs))
    engine.parts.index.drain()
    return engine


def _chat(page: Any, text: str) -> None:
    page.locator(".nav-item[data-view=chat]").click()
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def notes_over_stdio(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A Docs folder holding todo.txt ("buy milk") and the `mcpServers` entry of a real stdio server that
    can write notes there."""
    docs = tmp_path / "Docs"
    docs.mkdir()
    (docs / "todo.txt").write_text("buy milk\n")
    script = tmp_path / "files_server.py"
    script.write_text(STDIO_SERVER)
    return docs, {"files": {"command": sys.executable, "args": [str(script), str(docs)]}}


def test_an_mcp_write_call_asks_in_the_trace_deny_leaves_the_file_and_always_is_removable(tmp_path, browser):
    expect = playwright_api.expect
    docs, servers = notes_over_stdio(tmp_path)
    write = ("mcp__files__write_note", {"name": "todo.txt", "text": LONG_TEXT})
    replies = [
        Reply(tool_calls=[write]),
        Reply(content="I did not change your note."),
        Reply(tool_calls=[write]),
        Reply(content="Saved your note."),
    ]
    with FakeOpenAI(replies) as endpoint:
        engine = _start(tmp_path, endpoint, docs, mcpServers=servers)
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url, height=900)
            _chat(page, "Rewrite my todo note")
            card = page.get_by_test_id("approval-card")
            expect(card).to_be_visible(timeout=WAIT_MS)
            expect(card).to_contain_text("files")
            expect(card).to_contain_text("write_note")
            expect(card).to_contain_text("Write a note, replacing what was there.")
            expect(card.get_by_test_id("approval-arguments")).to_contain_text('"name": "todo.txt"')
            expect(card.locator("details")).to_contain_text("Full value of text")
            expect(card.get_by_test_id("approval-deny")).to_be_focused()
            assert (docs / "todo.txt").read_text() == "buy milk\n"
            _shot(page, "1-asks")
            card.get_by_test_id("approval-deny").click()
            expect(card.get_by_test_id("approval-state")).to_contain_text("Denied", timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-answer").last).to_contain_text(
                "I did not change your note.", timeout=WAIT_MS
            )
            assert (docs / "todo.txt").read_text() == "buy milk\n"
            _shot(page, "2-denied")

            _chat(page, "Please do write it")
            second = page.get_by_test_id("approval-card").nth(1)
            second.get_by_test_id("approval-always").click()
            expect(page.get_by_test_id("chat-answer").last).to_contain_text(
                "Saved your note.", timeout=WAIT_MS
            )
            assert (docs / "todo.txt").read_text() == LONG_TEXT
            assert json.loads((tmp_path / "home" / "settings.json").read_text())["mcpServers"]["files"][
                "alwaysAllow"
            ] == ["write_note"]

            page.locator(".nav-item[data-view=settings]").click()
            entry = page.locator("[data-testid=mcp-server][data-server=files]")
            expect(entry.get_by_test_id("mcp-write-warning")).to_contain_text(
                "can change things: write_note", timeout=WAIT_MS
            )
            expect(entry.locator("[data-tool=peek] [data-testid=mcp-tool-status]")).to_have_text("read-only")
            writer = entry.locator("[data-tool=write_note]")
            expect(writer.get_by_test_id("mcp-tool-status")).to_have_text("always allowed")
            _shot(page.locator("#set-mcp"), "3-settings-mcp")
            writer.get_by_test_id("mcp-forget").click()
            expect(
                page.locator(
                    "[data-testid=mcp-server][data-server=files] [data-tool=write_note] "
                    "[data-testid=mcp-tool-status]"
                )
            ).to_have_text("asks", timeout=WAIT_MS)
            assert engine.running.settings.mcp_servers["files"].always_allow == []
            assert errors == []
        finally:
            server.stop()
            engine.running.close()


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "Docs"
    docs.mkdir()
    for name in ("alpha.txt", "beta.txt", "gamma.txt", "delta.txt", "omega.txt"):
        (docs / name).write_text(f"{name}: a small note about {name[:-4]}.\n")
    return docs


def _rename(docs: Path, old: str, new: str) -> list[dict[str, Any]]:
    return [{"kind": "rename", "old_path": str(docs / old), "new_path": str(docs / new), "reason": "clearer"}]


def _review(page: Any, summary: str) -> Any:
    """Settings → History → Review on the draft called `summary`; returns its plan card."""
    page.locator(".nav-item[data-view=chat]").click()
    page.locator(".nav-item[data-view=settings]").click()
    item = page.get_by_test_id("history-item").filter(has_text=summary)
    playwright_api.expect(item.get_by_test_id("history-status")).to_have_text("draft", timeout=WAIT_MS)
    item.get_by_test_id("history-review").click()
    card = item.get_by_test_id("plan-card")
    playwright_api.expect(card).to_be_visible()
    return card


def _expect_banner(card: Any, kind: str, *texts: str) -> None:
    banner = card.get_by_test_id("plan-result")
    playwright_api.expect(banner).to_have_class(f"banner {kind}", timeout=WAIT_MS)
    for text in texts:
        playwright_api.expect(banner).to_contain_text(text)
    if kind == "error":
        assert "Applied" not in banner.inner_text() and "undefined" not in banner.inner_text()


def test_drafts_are_reviewable_from_history_after_a_reload_and_every_outcome_renders_as_what_it_is(
    tmp_path, browser
):
    expect = playwright_api.expect
    docs = _docs(tmp_path)
    archive = [
        {"kind": "mkdir", "new_path": str(docs / "Archive"), "reason": "a home for old notes"},
        {
            "kind": "move",
            "old_path": str(docs / "alpha.txt"),
            "new_path": str(docs / "Archive" / "alpha.txt"),
            "reason": "old",
        },
    ]
    replies = [
        Reply(
            content="I propose archiving alpha.",
            tool_calls=[("propose_actions", {"summary": "Archive alpha", "operations": archive})],
        )
    ]
    with FakeOpenAI(replies) as endpoint:
        engine = _start(tmp_path, endpoint, docs)
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url, height=900)
            _chat(page, "Archive alpha please")
            expect(page.get_by_test_id("plan-card")).to_be_visible(timeout=WAIT_MS)
            page.reload()  # the conversation is gone; the draft is not

            # 1. A draft from the reloaded page: Review → Approve → applied (green), then Undo (green).
            card = _review(page, "Archive alpha")
            expect(card.get_by_test_id("plan-op")).to_have_count(2)
            expect(card.locator(".tree-pane").nth(1)).to_contain_text("Archive")
            card.get_by_test_id("plan-approve").click()
            _expect_banner(card, "ok", "Applied 2 operations")
            assert (docs / "Archive" / "alpha.txt").is_file() and not (docs / "alpha.txt").exists()
            _shot(page.locator("#set-history"), "4-history-approved")
            card.get_by_test_id("plan-undo").click()
            _expect_banner(card, "ok", "Undid 2 operations")
            expect(card.get_by_test_id("plan-status")).to_have_text("undone")
            assert (docs / "alpha.txt").is_file() and not (docs / "Archive").exists()

            # 2. Refused: a target appeared after the proposal. Red, reasons listed, new plan / discard
            # offered.
            engine.parts.txn.propose_plan("Rename beta", _rename(docs, "beta.txt", "beta-new.txt"))
            (docs / "beta-new.txt").write_text("appeared meanwhile")
            card = _review(page, "Rename beta")
            card.get_by_test_id("plan-approve").click()
            _expect_banner(card, "error", "The plan was not applied; nothing was changed.")
            expect(card.get_by_test_id("plan-reasons").locator("li")).to_contain_text(["already exists"])
            expect(card.get_by_test_id("plan-status")).to_have_text("refused")
            expect(card.get_by_test_id("plan-ask-again")).to_be_visible()
            expect(card.get_by_test_id("plan-discard")).to_be_visible()
            expect(card.get_by_test_id("plan-approve")).to_be_hidden()
            assert (docs / "beta.txt").read_text().startswith("beta.txt") and (docs / "beta-new.txt").exists()
            _shot(page.locator("#set-history"), "5-refused")
            # History shows the draft's real state: refused, with its reason; Review still opens it.
            card = _review(page, "Rename beta")
            item = page.get_by_test_id("history-item").filter(has_text="Rename beta")
            expect(item.get_by_test_id("history-refused")).to_have_text("refused")
            _expect_banner(card, "error", "already exists")
            card.get_by_test_id("plan-discard").click()
            expect(card.get_by_test_id("plan-status")).to_have_text("discarded")

            # 3. Refused: a source changed since the proposal; "Ask for a new plan" asks in the chat.
            engine.parts.txn.propose_plan("Rename gamma", _rename(docs, "gamma.txt", "gamma-new.txt"))
            (docs / "gamma.txt").write_text("gamma, edited after the proposal and longer than before\n")
            card = _review(page, "Rename gamma")
            card.get_by_test_id("plan-approve").click()
            _expect_banner(card, "error", "was modified since the plan was proposed")
            card.get_by_test_id("plan-ask-again").click()
            expect(page.locator(".msg.user").last).to_contain_text("could not be applied", timeout=WAIT_MS)
            assert not (docs / "gamma-new.txt").exists()

            # 4. Failed during the disk phase and rolled back: red, the rollback step by step.
            engine.parts.txn.propose_plan(
                "Move delta",
                [
                    {"kind": "mkdir", "new_path": str(docs / "D"), "reason": "folder"},
                    {
                        "kind": "move",
                        "old_path": str(docs / "delta.txt"),
                        "new_path": str(docs / "D" / "delta.txt"),
                        "reason": "file",
                    },
                ],
            )
            _fail_second_disk_step(engine)
            card = _review(page, "Move delta")
            card.get_by_test_id("plan-approve").click()
            _expect_banner(card, "error", "Nothing was changed")
            expect(card.get_by_test_id("plan-rollback")).to_be_visible()
            expect(card.get_by_test_id("plan-status")).to_have_text("rolled back")
            assert (docs / "delta.txt").is_file() and not (docs / "D").exists()
            engine.parts.txn.disk.fault = None

            # 5. Undo refused: the renamed file changed after the plan was applied.
            engine.parts.txn.propose_plan("Rename omega", _rename(docs, "omega.txt", "omega-new.txt"))
            card = _review(page, "Rename omega")
            card.get_by_test_id("plan-approve").click()
            _expect_banner(card, "ok", "Applied 1 operation")
            (docs / "omega-new.txt").write_text("edited after the rename, so undo must refuse\n")
            card.get_by_test_id("plan-undo").click()
            _expect_banner(card, "error", "The plan was not undone; nothing was changed.", "changed since")
            assert (docs / "omega-new.txt").is_file()

            # 6. A draft older than 30 days is listed expired, with no Review.
            old = engine.parts.txn.propose_plan("Ancient plan", _rename(docs, "beta.txt", "beta-old.txt"))
            engine.parts.db.execute(
                "UPDATE txn_transactions SET created_at = ? WHERE id = ?",
                (time.time() - DRAFT_TTL_S - 60, old["transaction_id"]),
            )
            page.locator(".nav-item[data-view=chat]").click()
            page.locator(".nav-item[data-view=settings]").click()
            item = page.get_by_test_id("history-item").filter(has_text="Ancient plan")
            expect(item.get_by_test_id("history-status")).to_have_text("expired", timeout=WAIT_MS)
            expect(item.get_by_test_id("history-review")).to_have_count(0)
            _shot(page.locator("#set-history"), "6-history")

            # 7. A rollback that did not finish offers Retry rollback; its outcome renders in the item.
            stuck = ActionPlan(transaction_id=uuid.uuid4().hex, summary="Stuck plan")
            engine.parts.txn.store.create(stuck, {}, status="rollback_incomplete")
            page.locator(".nav-item[data-view=chat]").click()
            page.locator(".nav-item[data-view=settings]").click()
            item = page.get_by_test_id("history-item").filter(has_text="Stuck plan")
            expect(item.get_by_test_id("history-status")).to_have_text("rollback incomplete", timeout=WAIT_MS)
            item.get_by_test_id("history-retry").click()
            expect(item.get_by_test_id("plan-result")).to_be_visible(timeout=WAIT_MS)
            assert "undefined" not in item.get_by_test_id("plan-result").inner_text()
            assert errors == []
        finally:
            server.stop()
            engine.running.close()


def _fail_second_disk_step(engine: Engine) -> None:
    """Make the next apply fail after its first disk step, through the executor's fault seam."""
    if not hasattr(engine.parts.txn, "disk") or not hasattr(engine.parts.txn.disk, "fault"):
        pytest.fail("the executor's fault seam (TxnService.disk.fault) moved; update this test")

    def boom(point: Any) -> None:
        if point.phase == "disk" and point.stage == "before_disk" and point.seq == 2:
            raise OSError("the disk went away (injected by the test)")

    engine.parts.txn.disk.fault = boom
