"""Two files of the same name can be told apart wherever they appear (issue 28): the search result row,
the chat's source chip and the answer's link each show the folder that tells them apart, in a real
browser over a real Engine and a scripted endpoint. A name no other result shares shows no folder."""

from __future__ import annotations

import json
import re

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.fake_openai import FakeOpenAI, Reply

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page, search_for  # noqa: E402,F401 (the fixture)


def _folder(root):
    docs = root / "Docs"
    for folder, text in (
        ("Work", "Standup notes: the release slipped a week."),
        ("Garden", "Garden notes: tomatoes need staking."),
    ):
        (docs / folder).mkdir(parents=True)
        (docs / folder / "notes.md").write_text(text + "\n")
    (docs / "budget.txt").write_text("Budget notes for the quarter.\n")
    return docs


def test_same_named_files_show_their_folders_in_results_chips_and_answer_links(tmp_path, browser):
    expect = playwright_api.expect
    docs = _folder(tmp_path)
    script = [
        Reply(tool_calls=[("search_files", {"query": "notes"})]),
        Reply(content="Your standup is in notes.md; the budget is in budget.txt."),
    ]
    with FakeOpenAI(script) as endpoint:
        home = tmp_path / "home"
        home.mkdir()
        (home / "settings.json").write_text(
            json.dumps(
                {
                    "embedding": {"model": "hashing-384"},
                    "indexing": {"qualify_with_model": False},
                    "reasoning": {
                        "enabled": True,
                        "base_url": endpoint.base_url,
                        "model": "scripted",
                        "max_retries": 0,
                    },
                }
            )
        )
        engine = Engine(home)
        engine.add_indexed_folder(str(docs))
        engine.parts.index.drain()
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)
            page.locator(".nav-item[data-view=search]").click()
            search_for(page, "notes")  # keyword hits first, then the fused list
            rows = page.get_by_test_id("search-result")
            expect(rows).to_have_count(3, timeout=WAIT_MS)
            names = rows.locator(".result-name").all_inner_texts()
            assert sorted(n for n in names if n.startswith("notes.md")) == [
                "notes.md · Garden",
                "notes.md · Work",
            ]
            assert "budget.txt" in names  # unique: no folder
            _shot(page, "same-names-search")

            page.locator(".nav-item[data-view=chat]").click()
            page.get_by_test_id("chat-input").fill("Where are my notes?")
            page.get_by_test_id("chat-input").press("Enter")
            answer = page.get_by_test_id("chat-answer").last
            expect(answer).to_contain_text("budget.txt", timeout=WAIT_MS)
            folders = page.get_by_test_id("chat-sources").first.get_by_test_id("chip-folder")
            # the answer's text streams in before the turn ends; its source chips come with the end
            expect(folders).to_have_count(2, timeout=WAIT_MS)
            assert sorted(folders.all_inner_texts()) == ["Garden", "Work"]
            expect(answer.get_by_test_id("link-folder")).to_have_count(1)
            expect(answer.get_by_test_id("link-folder")).to_have_text(re.compile(r"^ \((Work|Garden)\)$"))
            _shot(page, "same-names-chat")
            assert errors == []
        finally:
            server.stop()
            engine.running.close()
