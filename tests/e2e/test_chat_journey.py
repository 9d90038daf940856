"""The chat as a person uses it, in a real browser against a real `serve` over a real Engine and a
scripted OpenAI-compatible endpoint: two conversations that survive a reload, Markdown (table, links,
code with Copy) rendered, Regenerate replacing the last answer, at most 5 source chips sorted by
score, and a trace step that opens onto its arguments. Screenshots at 1280×800 and 800×600 land in
test-artifacts/ (gitignored)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.fake_openai import FakeOpenAI, Reply

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page  # noqa: E402,F401 (the same Chromium fixture)

VENDORS = ["ACME", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Tyrell"]


def _folder(root: Path) -> Path:
    docs = root / "Docs"
    docs.mkdir()
    for i, vendor in enumerate(VENDORS, 1):
        (docs / f"invoice-{vendor.lower()}.txt").write_text(
            f"Invoice {i} from {vendor} Corp: {i * 110} EUR for services. " + "invoice " * i + "\n"
        )
    (docs / "recipe.txt").write_text("Apple pie: apples, flour, butter and cinnamon.\n")
    return docs


def _answer(docs: Path) -> str:
    rows = "\n".join(f"| invoice-{v.lower()}.txt | {(i + 1) * 110} EUR |" for i, v in enumerate(VENDORS[:6]))
    return (
        "## Invoices found\n\nSix of your invoices, **largest last**:\n\n"
        f"| File | Amount |\n|---|---:|\n{rows}\n\n"
        f"> Totals exclude VAT.\n\nSee [ACME's site](https://example.com/acme) or "
        f"[the ACME invoice]({(docs / 'invoice-acme.txt').as_uri()}).\n\n"
        "```python\ntotal = sum([110, 220, 330])\nprint(total)\n```\n"
    )


def _script(docs: Path) -> list[Reply]:
    return [
        Reply(tool_calls=[("search_files", {"query": "invoice EUR"})]),
        Reply(content=_answer(docs)),
        Reply(content="Regenerated: the invoices total 2310 EUR."),
        Reply(content="Apple pie needs apples, flour, butter and cinnamon (recipe.txt)."),
    ]


def _settings(home: Path, base_url: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(
        json.dumps(
            {
                "embedding": {"model": "hashing-384"},
                "indexing": {"qualify_with_model": False},
                "reasoning": {"enabled": True, "base_url": base_url, "model": "scripted", "max_retries": 0},
            }
        )
    )


def _ask(page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def test_two_conversations_markdown_regenerate_sources_and_trace_survive_a_reload(tmp_path, browser):
    docs = _folder(tmp_path)
    expect = playwright_api.expect
    with FakeOpenAI(_script(docs)) as endpoint:
        _settings(tmp_path / "home", endpoint.base_url)
        engine = Engine(tmp_path / "home")
        engine.add_indexed_folder(str(docs))
        engine.parts.index.drain()
        server = start_server(Api(engine))
        try:
            context = browser.new_context(
                viewport={"width": 1280, "height": 800}, permissions=["clipboard-read", "clipboard-write"]
            )
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url)

            # Conversation 1: a Markdown answer with a table, links and a code block.
            _ask(page, "Which invoices do I have?")
            answer = page.get_by_test_id("chat-answer").last
            expect(answer.locator("table.md-table tbody tr")).to_have_count(6, timeout=WAIT_MS)
            expect(answer.locator("h4.md-h")).to_have_text("Invoices found")
            expect(answer.locator("strong")).to_have_text("largest last")
            expect(answer.locator("blockquote")).to_contain_text("Totals exclude VAT")
            web = answer.locator("a.md-link")
            expect(web).to_have_attribute("href", "https://example.com/acme")
            expect(web).to_have_attribute("target", "_blank")
            expect(answer.locator("button.file-link[data-path]")).to_have_attribute(
                "data-path", str(docs / "invoice-acme.txt")
            )
            code = answer.get_by_test_id("code-block")
            expect(code.locator(".code-lang")).to_have_text("python")
            expect(code.locator("code")).to_contain_text("total = sum([110, 220, 330])")
            code.get_by_test_id("copy-code").click()
            expect(code.get_by_test_id("copy-code")).to_have_text("Copied")
            assert (
                page.evaluate("navigator.clipboard.readText()")
                == "total = sum([110, 220, 330])\nprint(total)"
            )
            assert "**" not in answer.inner_text() and "|---" not in answer.inner_text()

            # Sources: at most 5 chips, sorted by score, the rest behind "n more".
            chips = page.get_by_test_id("chat-sources").first.get_by_test_id("source-chip")
            scores = [float(s) for s in chips.evaluate_all("els => els.map(e => e.dataset.score)")]
            assert 0 < len(scores) <= 5 and scores == sorted(scores, reverse=True)
            # 6 named in the answer + the top 3 of the search, overlapping: some wait behind "n more"
            # (how many of the top 3 overlap depends on the ranking, which issue 28 recalibrated)
            expect(page.get_by_test_id("sources-more")).to_have_text(re.compile(r"^[1-4] more$"))

            # The trace: a step opens onto its arguments and its result.
            step = page.get_by_test_id("trace-step").first
            step.get_by_test_id("trace-summary").click()
            expect(step.get_by_test_id("trace-args")).to_contain_text('"query": "invoice EUR"')
            expect(step.get_by_test_id("trace-result")).to_contain_text("invoice-")
            chips.first.hover()
            _shot(page, "chat-1-markdown-1280x800")

            # Regenerate replaces the last answer (in the page and in the store).
            page.get_by_test_id("regenerate").click()
            expect(page.get_by_test_id("chat-answer")).to_have_count(1)
            expect(page.get_by_test_id("chat-answer").first).to_contain_text("Regenerated", timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-answer").first.locator("table")).to_have_count(0)

            # Conversation 2.
            page.get_by_test_id("conv-new").click()
            expect(page.get_by_test_id("chat-title")).to_have_text("New chat")
            _ask(page, "What goes into apple pie?")
            expect(page.get_by_test_id("chat-answer").last).to_contain_text("cinnamon", timeout=WAIT_MS)
            expect(page.get_by_test_id("conv-item")).to_have_count(2)

            # Reload: both listed, the open one restored.
            page.reload()
            expect(page.get_by_test_id("conv-item")).to_have_count(2, timeout=WAIT_MS)
            expect(page.get_by_test_id("chat-title")).to_have_text("What goes into apple pie?")
            expect(page.get_by_test_id("chat-answer")).to_have_count(1)
            expect(page.get_by_test_id("chat-answer").first).to_contain_text("cinnamon")
            _shot(page, "chat-2-reloaded-1280x800")

            # Open the first one; a reload at 800×600 brings it back with its regenerated answer.
            page.get_by_test_id("conv-item").filter(has_text="Which invoices").locator(".conv-open").click()
            expect(page.get_by_test_id("chat-answer").first).to_contain_text("Regenerated", timeout=WAIT_MS)
            page.set_viewport_size({"width": 800, "height": 600})
            page.reload()
            expect(page.get_by_test_id("chat-title")).to_have_text(
                "Which invoices do I have?", timeout=WAIT_MS
            )
            expect(page.get_by_test_id("chat-answer").first).to_contain_text("Regenerated")
            _shot(page, "chat-3-restored-800x600")
            page.get_by_test_id("conv-toggle").click()
            expect(page.get_by_test_id("conv-panel")).to_be_visible()
            _shot(page, "chat-4-list-800x600")

            stored = engine.get_conversation(engine.list_conversations()[1].conversation_id)
            assert [t.answer for t in stored.turns] == ["Regenerated: the invoices total 2310 EUR."]
            assert errors == []
            context.close()
        finally:
            server.stop()
            engine.running.close()


def test_an_unreachable_endpoint_is_an_error_that_opens_settings_where_a_typed_url_is_tested_unsaved(
    tmp_path, browser
):
    expect = playwright_api.expect
    _settings(tmp_path / "home", "http://127.0.0.1:9/v1")  # nothing listens there
    engine = Engine(tmp_path / "home")
    server = start_server(Api(engine))
    try:
        with FakeOpenAI([]) as endpoint:
            page, errors = open_page(browser, server.url)
            _ask(page, "Anything about invoices?")
            banner = page.get_by_test_id("chat-error")
            expect(banner).to_contain_text("Cannot reach the reasoning endpoint", timeout=WAIT_MS)
            _shot(page, "chat-5-endpoint-down-1280x800")

            # A longer conversation scrolled back to its start reopens there after a reload.
            page.set_viewport_size({"width": 800, "height": 600})
            for i in range(4):
                _ask(page, f"Question {i} about invoices?")
                expect(page.get_by_test_id("chat-error")).to_have_count(i + 2, timeout=WAIT_MS)
            log = page.get_by_test_id("chat-log")
            log.evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }")
            page.wait_for_function(
                "() => Object.values(JSON.parse(localStorage.getItem('sensetree-conversation-scroll') "
                "|| '{}')).includes(0)"
            )
            page.reload()
            expect(page.get_by_test_id("chat-error")).to_have_count(5, timeout=WAIT_MS)
            page.wait_for_function(
                "() => document.querySelector('#chat-log').scrollHeight > "
                "document.querySelector('#chat-log').clientHeight + 100"
            )
            assert log.evaluate("el => el.scrollTop") == 0
            page.set_viewport_size({"width": 1280, "height": 800})
            banner = page.get_by_test_id("chat-error").last
            banner.get_by_test_id("error-settings").click()
            expect(page.locator("#view-settings")).to_be_visible()
            expect(page.locator("#set-reasoning")).to_be_in_viewport()

            # A slip in what is typed: named, fixed with one click, and nothing saved.
            bare = endpoint.base_url.removeprefix("http://").removesuffix("/v1")
            # Settings fill their form when get_config answers: type only after that, as a person would.
            expect(page.get_by_test_id("reasoning-base-url")).to_have_value(
                "http://127.0.0.1:9/v1", timeout=WAIT_MS
            )
            page.get_by_test_id("reasoning-base-url").fill(bare)
            page.get_by_test_id("reasoning-model").fill("scripted")
            page.get_by_test_id("endpoint-test").click()
            verdict = page.locator("#endpoint-verdict")
            expect(verdict).to_contain_text("has no http://", timeout=WAIT_MS)
            page.get_by_test_id("use-suggested-url").click()
            expect(page.get_by_test_id("reasoning-base-url")).to_have_value(endpoint.base_url)
            expect(verdict).to_contain_text("Connected to 'scripted'", timeout=WAIT_MS)
            page.get_by_test_id("model-refresh").click()
            expect(page.locator("#model-status")).to_contain_text("1 model(s) available", timeout=WAIT_MS)
            _shot(page, "chat-6-settings-test-1280x800")
            assert engine.running.settings.reasoning.base_url == "http://127.0.0.1:9/v1"
            assert errors == []
    finally:
        server.stop()
        engine.running.close()
