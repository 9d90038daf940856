"""Snippets show the part of a chunk where the query's words are densest."""

from __future__ import annotations

from engine.retrieval.snippet import make_snippet, query_stems


def test_short_text_is_returned_whole_with_spaces_collapsed():
    assert make_snippet("Invoice  for\nMarch", "invoice") == "Invoice for March"


def test_snippet_is_centred_on_the_densest_match_with_ellipses_at_cut_ends():
    filler = "lorem ipsum dolor sit amet " * 30
    text = filler + "the quarterly budget review for the marketing team " + filler
    snippet = make_snippet(text, "budget review", width=120)
    assert "budget review" in snippet
    assert snippet.startswith("…") and snippet.endswith("…")
    assert len(snippet) <= 122


def test_snippet_prefers_the_window_holding_more_distinct_query_words():
    filler = "alpha beta gamma delta " * 20
    text = "budget " + filler + "budget plan approved " + filler
    assert "budget plan" in make_snippet(text, "budget plan", width=80)


def test_matching_ignores_case_and_accepts_other_word_forms():
    filler = "x" * 10 + " " + "filler words here " * 30
    text = filler + "She was Running late. " + filler
    assert "Running" in make_snippet(text, "runs", width=60)


def test_without_a_match_the_snippet_is_the_start_of_the_text():
    text = "First words of the document. " + "more text " * 50
    snippet = make_snippet(text, "absent", width=40)
    assert snippet.startswith("First words") and snippet.endswith("…")


def test_query_stems_drop_stopwords_and_keep_prefixes():
    assert query_stems("The running cats of 2023") == ["runn", "cat", "2023"]
