"""Keyword first, meaning second, in a real browser (issue 30): the page shows the keyword arm's hits while
the query is still being embedded, and replaces them with the fused list once the embedding lands. The
query embedding is held on an event, so "before" is an ordering the test controls, never a timing."""

from __future__ import annotations

import threading

import numpy as np

from engine.embed import HashingEmbedder
from tests.e2e.test_browser_journey import WAIT_MS, browser, playwright_api, search_page

__all__ = ["browser"]  # the fixture, imported for this module's tests

BOUND_S = 60.0


class HeldQueryEmbedder(HashingEmbedder):
    """The hashing embedder, except that once `hold()` is called each embedding waits for `release`."""

    def __init__(self) -> None:
        super().__init__()
        self.holding = False
        self.asked = threading.Event()
        self.release = threading.Event()

    def embed(self, texts: list[str]) -> np.ndarray:
        if self.holding:
            self.asked.set()
            assert self.release.wait(BOUND_S), "the test never released the query embedding"
        return super().embed(texts)


def test_the_page_shows_keyword_hits_while_the_query_embeds_then_the_fused_list(tmp_path, browser):
    expect = playwright_api.expect
    docs = tmp_path / "Docs"
    docs.mkdir()
    (docs / "harbour-lease.txt").write_text("The harbour lease renews in March; the mooring fee rises.")
    (docs / "orchard.txt").write_text("Pruning the orchard: apples in February, pears after.")
    embedder = HeldQueryEmbedder()
    with search_page(browser, tmp_path, docs, embedder=embedder) as (page, errors):
        try:
            embedder.holding = True
            page.get_by_test_id("search-input").fill("harbour mooring")
            page.get_by_test_id("search-input").press("Enter")
            results = page.get_by_test_id("search-results")
            assert embedder.asked.wait(BOUND_S)  # the fused search is waiting on the query's embedding...
            expect(results).to_have_attribute("data-phase", "keyword", timeout=WAIT_MS)  # ...and hits show
            expect(page.get_by_test_id("search-result").first).to_contain_text("harbour-lease.txt")
            expect(page.locator("#search-status")).to_contain_text("refining by meaning")
            assert not embedder.release.is_set()
            embedder.release.set()
            expect(results).to_have_attribute("data-phase", "fused", timeout=WAIT_MS)
            expect(page.get_by_test_id("search-result").first).to_contain_text("harbour-lease.txt")
            expect(page.locator("#search-status")).not_to_contain_text("refining")
            assert errors == []
        finally:
            embedder.release.set()  # before the server stops: a held query would keep its thread waiting
