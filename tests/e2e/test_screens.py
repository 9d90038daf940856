"""Small things a new user met on each screen, each checked in a real browser against `serve`: no stray
"null" in an answer's action row, a chat header that keeps one tidy row of tools with a long title
(screenshots light and dark at 1280×800 and 800×600 land in test-artifacts/)."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge import Api
from bridge.server import start_server
from engine.agent.approval import pin
from engine.engine import Engine
from engine.errors import EngineError
from tests.fake_openai import FakeOpenAI, Raw, Reply, chunk

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_approval_journey import _docs, _rename, notes_over_stdio  # noqa: E402
from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page  # noqa: E402,F401 (the same Chromium fixture)
from tests.e2e.test_chat_journey import _ask, _settings  # noqa: E402

WIPE_HINTS = {"readOnlyHint": True, "destructiveHint": True}  # what the notes server's `wipe` declares

LONG_TITLE = (
    "Which of my rental contracts and lease renewal letters mention a notice period longer than three months?"
)
DOWN = "http://127.0.0.1:9/v1"  # nothing listens there: every answer is an error


@pytest.fixture
def served(tmp_path):
    """A real Engine behind `serve`, its reasoning endpoint unreachable."""
    _settings(tmp_path / "home", DOWN)
    engine = Engine(tmp_path / "home")
    server = start_server(Api(engine))
    try:
        yield engine, server
    finally:
        server.stop()
        engine.running.close()


def test_no_answer_action_row_says_null_live_after_a_reload_or_on_an_error(served, browser):
    _engine, server = served
    expect = playwright_api.expect
    page, errors = open_page(browser, server.url)
    for i in range(2):
        _ask(page, f"Question {i} about invoices?")
        expect(page.get_by_test_id("chat-error")).to_have_count(i + 1, timeout=WAIT_MS)
    rows = page.locator(".msg.assistant .msg-actions")
    assert "null" not in " ".join(rows.all_inner_texts())
    page.reload()
    expect(page.get_by_test_id("chat-error")).to_have_count(2, timeout=WAIT_MS)
    assert "null" not in " ".join(rows.all_inner_texts())
    assert "null" not in page.locator("#chat-log").inner_text()
    assert errors == []


HEADER_ROWS = """() => {
  const middle = (e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2);
  const tops = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetWidth > 1).map(middle);
  const title = document.querySelector('#chat-title');
  return {
    tools: [...new Set(tops('.chat-header .header-tools > *'))],
    title: tops('#chat-title')[0],
    truncated: title.scrollWidth > title.clientWidth,
  };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (800, 600)])
def test_a_long_chat_title_truncates_and_the_header_tools_stay_on_one_row(
    served, browser, width, height, scheme
):
    engine, server = served
    expect = playwright_api.expect
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    _ask(page, LONG_TITLE)
    expect(page.get_by_test_id("chat-error")).to_have_count(1, timeout=WAIT_MS)
    expect(page.get_by_test_id("chat-title")).to_contain_text(LONG_TITLE[:60])
    if width < 980 and page.get_by_test_id("conv-panel").is_hidden():
        page.get_by_test_id("conv-toggle").click()
    expect(page.get_by_test_id("conv-panel")).to_be_visible()
    _shot(page, f"chat-header-long-title-{width}x{height}-{scheme}")
    rows = page.evaluate(HEADER_ROWS)
    assert len(rows["tools"]) == 1, rows  # Model, Scope and Export on one row, each label by its select
    assert rows["truncated"], rows  # the title gives way (ellipsis), not the tools
    if width >= 1280:
        assert rows["tools"][0] == rows["title"], rows  # one header row when there is room
    assert errors == []
    context.close()


TASK_MARKERS = """async (text) => {
  const md = await import('/js/markdown.js');
  const bubble = document.createElement('div');
  bubble.className = 'bubble';
  const box = document.createElement('div');
  box.className = 'answer';
  bubble.append(box);
  document.querySelector('#chat-log').append(bubble);
  box.append(md.renderMarkdown(text, {}));
  const marker = (li) => [getComputedStyle(li).listStyleType, !!li.querySelector('input')];
  return [...box.querySelectorAll('li')].map(marker);
}"""


def test_a_task_list_item_shows_its_checkbox_and_no_bullet_while_a_plain_item_keeps_its_bullet(
    served, browser
):
    _engine, server = served
    page, errors = open_page(browser, server.url)
    markers = page.evaluate(TASK_MARKERS, "- [ ] call the landlord\n- [x] pay rent\n- plain item")
    assert markers == [["none", True], ["none", True], ["disc", False]]
    assert errors == []


def _held_stream(release: threading.Event) -> Iterator[dict[str, Any]]:
    """A model still thinking after its tool call: nothing until `release` is set (bounded)."""
    release.wait(60)
    yield chunk({"content": "Your lease renews in May."})
    yield chunk({}, "stop")


def test_while_the_first_answer_runs_the_header_names_the_chat_and_the_live_step_has_one_ellipsis(
    tmp_path, browser
):
    expect = playwright_api.expect
    docs = tmp_path / "Docs"
    docs.mkdir()
    (docs / "lease-renewal-letter.txt").write_text("The lease renews on 1 May; notice period three months.\n")
    release = threading.Event()
    read = ("read_file", {"path": str(docs / "lease-renewal-letter.txt")})
    with FakeOpenAI([Reply(tool_calls=[read]), Raw(stream=_held_stream(release))]) as endpoint:
        _settings(tmp_path / "home", endpoint.base_url)
        engine = Engine(tmp_path / "home")
        engine.add_indexed_folder(str(docs))
        engine.parts.index.drain()
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            _ask(page, "When does my lease renew?")
            live = page.locator("#chat-log li.live")
            expect(live).to_contain_text("Reading: lease-renewal-letter.txt", timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-title")).to_have_text("When does my lease renew?")
            expect(page.locator("#conv-list .conv-item.active")).to_contain_text("When does my lease renew?")
            shown = live.evaluate(
                "li => li.textContent + [li, ...li.querySelectorAll('*')].map("
                "(e) => getComputedStyle(e, '::after').content).filter((c) => c !== 'none').join('')"
            )
            assert shown.count("…") == 1, shown
            release.set()
            expect(page.get_by_test_id("chat-answer").last).to_contain_text("renews in May", timeout=WAIT_MS)
            assert errors == []
        finally:
            release.set()
            server.stop()
            engine.running.close()


def test_settings_name_the_url_slip_first_refuse_to_save_it_and_refresh_reads_the_corrected_url(
    tmp_path, browser
):
    expect = playwright_api.expect
    _settings(tmp_path / "home", DOWN)
    with FakeOpenAI([]) as endpoint:
        engine = Engine(tmp_path / "home")
        engine.set_config({"reasoning": {"enabled": False}})
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            page.locator(".nav-item[data-view=settings]").click()
            url = page.get_by_test_id("reasoning-base-url")
            expect(url).to_have_value(DOWN, timeout=WAIT_MS)
            bare = endpoint.base_url.removeprefix("http://").removesuffix("/v1")
            url.fill(bare)
            page.get_by_test_id("reasoning-model").fill("")
            page.get_by_test_id("endpoint-test").click()
            verdict = page.locator("#endpoint-verdict")
            expect(verdict).to_contain_text("has no http://", timeout=WAIT_MS)
            said = verdict.inner_text()
            assert said.index("has no http://") < said.index("No model is set")  # the slip first

            page.locator("#reasoning-form input[name=enabled]").check()
            page.locator("#reasoning-form button[type=submit]").click()
            expect(page.locator(".toast.error")).to_contain_text("Not saved", timeout=WAIT_MS)
            expect(page.get_by_test_id("use-suggested-url")).to_have_text(f"Use {endpoint.base_url}")
            assert (
                engine.running.settings.reasoning.base_url == DOWN
                and engine.running.settings.reasoning.enabled is False
            )

            page.get_by_test_id("model-refresh").click()
            expect(page.locator("#model-status")).to_contain_text("1 model(s) available", timeout=WAIT_MS)
            page.get_by_test_id("use-suggested-url").click()
            expect(url).to_have_value(endpoint.base_url)
            page.locator("#reasoning-form button[type=submit]").click()
            expect(page.locator(".toast").last).to_contain_text("Settings saved", timeout=WAIT_MS)
            assert engine.running.settings.reasoning.base_url == endpoint.base_url
            assert errors == []
        finally:
            server.stop()
            engine.running.close()


OVERLAPS = """(server) => {
  const box = (sel) => server.querySelector(sel).getBoundingClientRect();
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  const command = box('[data-testid=mcp-command]');
  return ['[data-testid=mcp-edit]', '[data-testid=mcp-remove]', '[data-testid=mcp-write-warning]']
    .filter((sel) => !apart(command, box(sel)));
}"""


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (800, 600)])
def test_an_mcp_server_row_keeps_edit_and_remove_clear_of_its_command_and_says_no_others_when_none_ask(
    tmp_path, browser, width, height
):
    expect = playwright_api.expect
    deep = tmp_path / "a-rather-long-folder-name-for-the-mcp-server-script-and-its-notes"
    deep.mkdir()
    _docs, servers = notes_over_stdio(deep)
    servers["files"]["alwaysAllow"] = ["write_note", "wipe"]
    # "Always allow" holds only for the tool as it declared itself when allowed (issue 31, N17)
    servers["files"]["alwaysAllowPins"] = {
        "write_note": pin("write_note", "Write a note, replacing what was there.", None),
        "wipe": pin("wipe", "Empty a note (its annotations contradict themselves).", WIPE_HINTS),
    }
    _settings(tmp_path / "home", DOWN)
    engine = Engine(tmp_path / "home")
    engine.set_config({"mcpServers": servers})
    server = start_server(Api(engine))
    try:
        page, errors = open_page(browser, server.url, width, height)
        page.locator(".nav-item[data-view=settings]").click()
        entry = page.locator("[data-testid=mcp-server][data-server=files]")
        warning = entry.get_by_test_id("mcp-write-warning")
        expect(warning).to_contain_text("run without asking because you allowed them", timeout=WAIT_MS)
        expect(warning).not_to_contain_text("others")
        entry.scroll_into_view_if_needed()
        _shot(page, f"settings-mcp-row-{width}x{height}")
        assert entry.evaluate(OVERLAPS) == []
        assert errors == []
    finally:
        server.stop()
        engine.running.close()


def test_history_lists_a_refused_plans_reasons_one_per_line_and_names_an_undo_as_what_it_undid(
    tmp_path, browser
):
    expect = playwright_api.expect
    with _indexed_docs(tmp_path) as (engine, docs):
        _history_with_a_refusal_and_an_undo(engine, docs)
        with _page_on(engine, browser) as (page, errors):
            page.locator(".nav-item[data-view=settings]").click()
            item = page.get_by_test_id("history-item").filter(has_text="Rename two")
            expect(item.get_by_test_id("history-refusal").locator("li")).to_have_count(2, timeout=WAIT_MS)
            undo = page.get_by_test_id("history-item").filter(has_text="Rename gamma").first
            expect(undo.get_by_test_id("history-status")).to_have_text("undid")
            expect(undo).not_to_contain_text("Undo:")
            expect(page.get_by_test_id("history-item").filter(has_text="Rename gamma")).to_have_count(2)
            page.locator("#set-history").scroll_into_view_if_needed()
            _shot(page, "settings-history-1280x800")
            assert errors == []


def _history_with_a_refusal_and_an_undo(engine: Engine, docs: Path) -> None:
    """A plan refused (both targets appeared meanwhile), and a rename applied then undone."""
    both = _rename(docs, "alpha.txt", "alpha-new.txt") + _rename(docs, "beta.txt", "beta-new.txt")
    refused = engine.parts.txn.propose_plan("Rename two", both)
    for name in ("alpha-new.txt", "beta-new.txt"):
        (docs / name).write_text("appeared meanwhile")
    with pytest.raises(EngineError):
        engine.apply_action_plan(refused["transaction_id"])
    done = engine.parts.txn.propose_plan("Rename gamma", _rename(docs, "gamma.txt", "gamma-new.txt"))
    engine.apply_action_plan(done["transaction_id"])
    engine.undo_transaction(done["transaction_id"])


def test_the_folders_view_says_by_name_only_and_what_it_means_instead_of_an_unexplained_skipped(
    tmp_path, browser
):
    expect = playwright_api.expect
    binary = {"holiday.bin": bytes(range(256)) * 8}
    with _indexed_docs(tmp_path, binary) as (engine, _docs_path), _page_on(engine, browser) as (page, errors):
        page.locator(".nav-item[data-view=folders]").click()
        stat = (
            page.get_by_test_id("index-stats").locator("div").filter(has=page.locator("[data-stat=skipped]"))
        )
        expect(stat.locator("dt")).to_have_text("By name only", timeout=WAIT_MS)
        expect(stat.locator("dd")).to_have_text("1")
        expect(stat).to_have_attribute("title", re.compile("found by their name"))
        expect(page.get_by_test_id("index-stats")).not_to_contain_text("Skipped")
        assert errors == []


def test_the_sidebar_counts_every_file_again_once_an_undo_brings_one_back_from_the_trash(tmp_path, browser):
    """The sidebar read 173 of 174 files after an undo: the file back from the trash was only queued,
    and the last progress the page heard was measured in the middle of the undo. No worker runs here,
    so nothing is read again: the count the page shows comes from the undo alone."""
    expect = playwright_api.expect
    with _indexed_docs(tmp_path) as (engine, docs), _page_on(engine, browser) as (page, errors):
        counts = page.locator("#mini-counts")
        expect(counts).to_contain_text("5 files", timeout=WAIT_MS)
        trash = [{"kind": "delete", "old_path": str(docs / "beta.txt"), "reason": "a copy of alpha"}]
        plan = engine.parts.txn.propose_plan("Trash a copy", trash)
        engine.apply_action_plan(plan["transaction_id"])
        expect(counts).to_contain_text("4 files", timeout=WAIT_MS)
        engine.undo_transaction(plan["transaction_id"])
        expect(counts).to_contain_text("5 files", timeout=WAIT_MS)
        assert errors == []


@contextlib.contextmanager
def _indexed_docs(tmp_path: Path, extra: dict[str, bytes] | None = None) -> Iterator[tuple[Engine, Path]]:
    """The five small notes (and `extra` files) indexed by an engine whose worker never runs, its
    reasoning endpoint unreachable; closed afterwards."""
    docs = _docs(tmp_path)
    for name, data in (extra or {}).items():
        (docs / name).write_bytes(data)
    _settings(tmp_path / "home", DOWN)
    engine = Engine(tmp_path / "home")
    try:
        engine.add_indexed_folder(str(docs))
        engine.parts.index.drain()
        yield engine, docs
    finally:
        engine.running.close()


@contextlib.contextmanager
def _page_on(engine: Engine, browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page (and its error list) on `serve` over `engine`, stopped afterwards."""
    server = start_server(Api(engine))
    try:
        yield open_page(browser, server.url)
    finally:
        server.stop()
