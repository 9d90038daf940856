"""Identical copies are one search row in a real browser (issue 28): a recipe and its byte-identical
download show once, as the filed copy's row that says where the other copy is ("Also in
Downloads/bibimbap.md"), so it stays one click away; a row without copies says nothing of the kind.
The screenshot is test-artifacts/search-copies.png."""

from __future__ import annotations

from tests.e2e.test_browser_journey import (
    ARTIFACTS,
    WAIT_MS,
    browser,
    playwright_api,
    search_for,
    search_page,
)

__all__ = ["browser"]  # the fixture, imported for this module's tests

BIBIMBAP = "Bibimbap: rice, gochujang, spinach, carrots, a fried egg; mix everything in a hot stone bowl.\n"


def test_identical_copies_are_one_row_that_says_also_in_the_other_folder(tmp_path, browser):
    expect = playwright_api.expect
    docs = tmp_path / "Home"
    for relative, text in (
        ("Recipes/bibimbap.md", BIBIMBAP),
        ("Downloads/bibimbap.md", BIBIMBAP),
        ("Recipes/kimchi-stew.md", "Kimchi stew: kimchi, pork, tofu and gochujang, simmered.\n"),
    ):
        (docs / relative).parent.mkdir(parents=True, exist_ok=True)
        (docs / relative).write_text(text)
    with search_page(browser, tmp_path, docs) as (page, errors):
        results = search_for(page, "gochujang")  # keyword hits first, then the fused list
        rows = page.get_by_test_id("search-result")
        expect(rows).to_have_count(2, timeout=WAIT_MS)
        bibimbap = rows.filter(has_text="bibimbap.md")
        expect(bibimbap).to_have_count(1)
        expect(bibimbap.locator(".result-path")).to_have_text(str(docs / "Recipes" / "bibimbap.md"))
        expect(bibimbap.get_by_test_id("result-copies")).to_have_text("Also in Downloads/bibimbap.md")
        expect(rows.filter(has_text="kimchi-stew.md").get_by_test_id("result-copies")).to_have_count(0)
        ARTIFACTS.mkdir(exist_ok=True)
        results.screenshot(path=str(ARTIFACTS / "search-copies.png"))
        assert errors == []
