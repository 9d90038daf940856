"""web/js/markdown.js in a real Chromium: model output never becomes markup or script, links are only
web or file links, nested lists and tables render, and a streaming answer never shows a raw `**`."""

from __future__ import annotations

import json

import pytest

from bridge import Api
from bridge.server import start_server
from engine.embed import HashingEmbedder
from engine.engine import Engine

pytest.importorskip("playwright.sync_api", reason="pip install playwright (no browser download needed)")

from tests.e2e.test_browser_journey import browser  # noqa: E402,F401 (the same Chromium fixture)

RENDER = """async ([text, partial]) => {
  const md = await import('/js/markdown.js');
  const box = document.createElement('div');
  box.className = 'answer';
  document.body.append(box);
  box.append(md.renderMarkdown(text, { partial }));
  const q = (s) => [...box.querySelectorAll(s)];
  return { text: box.innerText, html: box.innerHTML, imgs: q('img').length, scripts: q('script').length,
           links: q('a').map((a) => [a.getAttribute('href'), a.getAttribute('target')]),
           files: q('button.file-link').map((b) => b.dataset.path), nested: q('ul > li > ul > li').length,
           cells: q('td').map((c) => c.textContent),
           aligned: q('td').map((c) => getComputedStyle(c).textAlign),
           strong: q('strong').map((s) => s.textContent),
           code: q('.code-block').map((c) => [c.querySelector('.code-lang').textContent,
                                              c.querySelector('code').textContent]) };
}"""


@pytest.fixture
def page(tmp_path, browser):
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder())
    server = start_server(Api(engine))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url)
    yield page
    assert errors == []
    server.stop()
    engine.running.close()


def render(page, text: str, partial: bool = False) -> dict:
    return page.evaluate(RENDER, [text, partial])


def test_raw_html_and_script_links_stay_text(page):
    out = render(
        page, '<img src=x onerror="alert(1)"> <script>alert(2)</script> [click](javascript:alert(3))'
    )
    assert out["imgs"] == 0 and out["scripts"] == 0 and out["links"] == []
    assert "<img" in out["text"] and "[click](javascript:alert(3))" in out["text"]


def test_web_links_file_links_and_autolinks(page):
    out = render(
        page,
        "See [docs](https://example.com/a), https://example.com/b. and [f](file:///tmp/My%20File.txt) "
        "or [g](/srv/x.md)",
    )
    assert out["links"] == [["https://example.com/a", "_blank"], ["https://example.com/b", "_blank"]]
    assert out["files"] == ["/tmp/My File.txt", "/srv/x.md"]


def test_nested_lists_tables_and_code(page):
    out = render(
        page, "- a\n  - b\n  - c\n- d\n\n| x | y |\n|:--|--:|\n| 1 | **2** |\n\n```sql\nSELECT 1;\n```"
    )
    assert out["nested"] == 2 and out["cells"] == ["1", "2"] and out["strong"] == ["2"]
    assert out["aligned"] == ["left", "right"]
    assert out["code"] == [["sql", "SELECT 1;"]]


def test_a_streaming_answer_holds_back_open_markers_and_shows_an_open_fence_as_code(page):
    assert render(page, "Hello **wor", partial=True)["text"].strip() == "Hello wor"
    assert render(page, "Hello **world**", partial=True)["strong"] == ["world"]
    assert render(page, "See [the file](https://exa", partial=True)["text"].strip() == "See the file"
    assert render(page, "Code:\n```python\nx = 1", partial=True)["code"] == [["python", "x = 1"]]
    assert json.dumps(render(page, "a*b and snake_case_name", partial=True)["text"]).count("_") == 2
