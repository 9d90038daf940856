"""Snippets show the part of a chunk where the query's terms are densest, as plain text, with whole
stemmed query terms marked (never stop words, never pieces of words) and no repeated sense."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import markdown_text
from engine.markdown_text import strip_markdown
from engine.retrieval import snippet as snippet_module
from engine.retrieval import terms as terms_module
from engine.retrieval.snippet import Snippet, make_snippet, split_head
from engine.retrieval.terms import TermMatcher


def marked(snippet: Snippet) -> list[str]:
    return [snippet.text[start:end] for start, end in snippet.highlights]


def test_short_text_is_returned_whole_with_spaces_collapsed():
    assert make_snippet("Invoice  for\nMarch", "invoice").text == "Invoice for March"


def test_snippet_is_centred_on_the_densest_match_with_ellipses_at_cut_ends():
    filler = "lorem ipsum dolor sit amet " * 30
    text = filler + "the quarterly budget review for the marketing team " + filler
    snippet = make_snippet(text, "budget review", width=120)
    assert "budget review" in snippet.text
    assert snippet.text.startswith("…") and snippet.text.endswith("…")
    assert len(snippet.text) <= 122
    assert marked(snippet) == ["budget", "review"]


def test_snippet_prefers_the_window_holding_more_distinct_query_words():
    filler = "alpha beta gamma delta " * 20
    text = "budget " + filler + "budget plan approved " + filler
    assert "budget plan" in make_snippet(text, "budget plan", width=80).text


def test_matching_ignores_case_and_accepts_other_word_forms():
    filler = "x" * 10 + " " + "filler words here " * 30
    text = filler + "She was Running late. " + filler
    snippet = make_snippet(text, "runs", width=60)
    assert "Running" in snippet.text
    assert marked(snippet) == ["Running"]


def test_without_a_match_the_snippet_is_the_start_of_the_text():
    text = "First words of the document. " + "more text " * 50
    snippet = make_snippet(text, "absent", width=40)
    assert snippet.text.startswith("First words") and snippet.text.endswith("…")
    assert snippet.highlights == []


def test_highlights_mark_whole_words_only_never_a_fragment_inside_a_word():
    snippet = make_snippet("The tool categorises this list and is done.", "is list")
    assert marked(snippet) == ["list"]  # "is" is a stop word; and never the "is" in "categorises"


def test_highlights_mark_stemmed_forms_of_the_query_terms():
    snippet = make_snippet(
        "Two categories, one category; renewals and the renewed lease.", "category renewal"
    )
    assert marked(snippet) == ["categories", "category", "renewals", "renewed"]


def test_stop_words_are_never_highlighted_even_when_the_query_holds_them():
    snippet = make_snippet("This is the lease of the flat, and it is signed.", "the lease is signed")
    assert marked(snippet) == ["lease", "signed"]


def test_highlight_ranges_point_into_the_cut_snippet_text():
    text = "word " * 100 + "The lease renewal is signed. " + "word " * 100
    snippet = make_snippet(text, "lease renewal", width=80)
    assert snippet.text.startswith("…")
    assert marked(snippet) == ["lease", "renewal"]


def test_markdown_is_shown_as_plain_text():
    text = "# Seoul — day 1\n\nBreakfast at **Gwangjang** market, see [the map](seoul.md).\n- `kimbap` stall"
    snippet = make_snippet(text, "market")
    assert snippet.text == "Seoul — day 1 Breakfast at Gwangjang market, see the map. kimbap stall"
    assert marked(snippet) == ["market"]


def test_the_first_chunk_shows_its_text_not_the_sense_that_repeats_it():
    chunk = (
        "[text] scan_0042.txt: Rental agreement renewal — flat 4, Elm Street.\n\n"
        "Rental agreement renewal — flat 4, Elm Street. The tenant renews for twelve months."
    )
    snippet = make_snippet(chunk, "rental renewal", first_chunk=True)
    assert (
        snippet.text == "Rental agreement renewal — flat 4, Elm Street. The tenant renews for twelve months."
    )
    assert snippet.text.count("Rental agreement renewal") == 1
    assert "[text]" not in snippet.text and "scan_0042" not in snippet.text


def test_the_sense_is_shown_when_only_the_sense_matches():
    chunk = "[invoice] Invoice from ACME for March hosting.\n\nRechnung Nr. 1042, Betrag 120 EUR."
    snippet = make_snippet(chunk, "invoice", first_chunk=True)
    assert snippet.text == "Invoice from ACME for March hosting."
    assert marked(snippet) == ["Invoice"]


def test_a_first_chunk_with_only_its_head_shows_the_head():
    assert make_snippet("[binary] photo.png", "photo", first_chunk=True).text == "photo.png"


def test_later_chunks_are_not_mistaken_for_a_sense_head():
    text = "[1] First reference.\n\nSecond paragraph."
    assert make_snippet(text, "reference").text == "[1] First reference. Second paragraph."


def test_split_head_separates_the_sense_from_the_text():
    assert split_head("[pdf] Lease of flat 4.\n\nThe tenant…") == ("Lease of flat 4.", "The tenant…")
    assert split_head("No tag here.\n\nMore.") == ("", "No tag here.\n\nMore.")


def test_query_terms_are_the_keyword_index_terms():
    matcher = TermMatcher()
    try:
        assert matcher.query_terms("The running cats of 2023") == frozenset({"run", "cat", "2023"})
    finally:
        matcher.close()


def test_markdown_stripping_leaves_identifiers_and_arithmetic_alone():
    text = "call mcp__filesystem__write_file with snake_case_name, 2*3*4 and a * b; __strong__ goes"
    assert make_snippet(text, "call").text == (
        "call mcp__filesystem__write_file with snake_case_name, 2*3*4 and a * b; strong goes"
    )


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="ab1 9\n\t-=+.):#*_[]<>|`~!\\(", max_size=40))
def test_text_the_markdown_shortcut_skips_is_exactly_what_strip_markdown_returns(text):
    if not snippet_module._MAY_BE_MARKDOWN.search(text):
        assert strip_markdown(text) == text


def test_the_markdown_shortcut_skips_plain_prose_and_catches_every_kind_of_markup():
    assert not snippet_module._MAY_BE_MARKDOWN.search(
        "Plain prose - with a dash, 3.5 kg and (a) note.\n2024 ok"
    )
    for marked_up in (
        "# Head",
        "**b**",
        "_e_",
        "[l](x)",
        "<!-- c -->",
        "a | b",
        "`c`",
        "~~s~~",
        "![i](x)",
        "> quote",
        "x\\*y",
        "- item",
        "  + item",
        "12. item",
        "3) item",
        "---\nfm: 1\n---",
        "===",
        "<https://x.y>",
    ):
        assert snippet_module._MAY_BE_MARKDOWN.search(marked_up), marked_up


@pytest.fixture(scope="module")
def matcher():
    shared = TermMatcher()
    yield shared
    shared.close()


WORD = st.text(alphabet="abdeginstuyAEIY1é", min_size=1, max_size=9)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(WORD, min_size=1, max_size=12), picks=st.lists(st.integers(0, 11), max_size=3))
def test_matching_skips_no_word_that_stems_to_a_query_term(matcher, words, picks):
    """The matcher stems only words whose first letter begins a term; stemming every word finds the same."""
    stems = matcher._lookup(words)
    terms = frozenset(stems[words[i % len(words)]].stem for i in picks) - {""}
    text = " ".join(words)
    every, at = [], 0
    for word in words:
        start = text.index(word, at)
        at = start + len(word)
        if not stems[word].stop and stems[word].stem in terms:
            every.append((start, at, stems[word].stem))
    assert matcher.matches(text, terms) == every


TEXT = st.text(alphabet="abdeginrstuyBRY1é\u00a0—- ,.\n'", max_size=60)


@settings(max_examples=500, deadline=None)
@given(text=TEXT, terms=st.frozensets(st.text(alphabet="abdrsyé1", min_size=1, max_size=6), max_size=3))
def test_the_candidate_words_are_every_word_that_is_not_ascii_or_starts_with_a_terms_head(text, terms):
    heads = tuple(term[: max(1, len(term) - terms_module.STEM_SLACK)] for term in terms)
    expected = [
        (m.start(), m.group())
        for m in terms_module._WORDS.finditer(text)
        if not m.group().isascii() or m.group().lower().startswith(heads)
    ]
    assert [(m.start(), m.group()) for m in terms_module._candidates(terms).finditer(text)] == expected


ASCII_TEXT = st.text(alphabet="abdeginrstuyBRSY1 \t\n\x0b\x1c,.-_'!#/\\", max_size=80)


@settings(max_examples=500, deadline=None)
@given(
    text=st.one_of(ASCII_TEXT, TEXT, st.text(alphabet="absSKk \u017f\u212a", max_size=30)),
    terms=st.frozensets(st.text(alphabet="abdrsy1é\u017f", min_size=1, max_size=6), max_size=3),
)
def test_candidate_words_finds_what_the_candidates_regex_finds(text, terms):
    """The str.find search of ASCII texts (and the regex it falls back to for other texts, or a head
    with a letter that IGNORECASE folds onto an ASCII one, like the long s) finds the regex's words."""
    expected = [(m.start(), m.end(), m.group()) for m in terms_module._candidates(terms).finditer(text)]
    assert terms_module.candidate_words(text, terms) == expected


def test_learning_a_searchs_texts_stems_their_candidate_words_in_one_statement(matcher, monkeypatch):
    """ASCII words are stemmed in Python (point_tokens.Stems); the others, by DuckDB's folding, together."""
    texts = ["Running budgets rose", "the runner budgeted", "nothing here", "Rünning café", "Bädget"]
    terms = frozenset({"run", "budget"})
    statements: list[int] = []
    real = matcher._connection

    def counted():
        statements.append(1)
        return real()

    monkeypatch.setattr(matcher, "_connection", counted)
    matcher.learn(texts, terms)
    assert len(statements) == 1
    assert [matcher.matches(t, terms) for t in texts][0] == [(0, 7, "run"), (8, 15, "budget")]
    assert len(statements) == 1  # every word matches() looked at was learnt


# The delimiter rules as first written, with the lookbehind first (markdown_text.py starts them with the
# delimiter, which the regex engine can jump to): both forms must unwrap exactly the same text.
PLAIN_EMPHASIS = r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])"
PLAIN_UNDERSCORE = r"(?<![\w_])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![\w_])"
PLAIN_STRONG = r"(\*\*)(?=\S)(.+?)(?<=\S)\1|(?<![\w_])(__)(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])"
PLAIN_CODE = r"(`+)(?=\S)(.+?)(?<=\S)\1"
MARKUP = st.text(alphabet="ab_*`é1 \n", max_size=30)


@settings(max_examples=2000, deadline=None)
@given(text=MARKUP)
def test_delimiter_rules_that_start_with_the_delimiter_unwrap_what_the_plain_rules_unwrap(text):
    def strong(match: re.Match[str]) -> str:
        return match.group(2) if match.group(1) else match.group(4)

    assert markdown_text._EMPHASIS.sub(r"\1", text) == re.sub(PLAIN_EMPHASIS, r"\1", text)
    assert markdown_text._UNDERSCORE.sub(r"\1", text) == re.sub(PLAIN_UNDERSCORE, r"\1", text)
    assert markdown_text._strong(text) == re.sub(PLAIN_STRONG, strong, text)
    assert markdown_text._CODE.sub(r"\2", text) == re.sub(PLAIN_CODE, r"\2", text)


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet="ab \t\n\r\x0b\x0c\x1c\x85\u00a0\u2028\u3000é", max_size=30))
def test_a_snippet_folds_white_space_as_the_white_space_regex_does(text):
    assert snippet_module._plain(text) == re.sub(r"\s+", " ", text).strip()


def test_a_page_of_snippets_is_each_text_snippet_and_a_second_page_reuses_them(matcher):
    texts = [
        ("The budget review is due in spring; the budget grows.", False),
        ("[txt] A note about travel.\n\nNothing about money here.", True),
        ("**Budgets** for the _team_ and its travel " * 8, False),
    ]
    terms = matcher.query_terms("budget travel")
    one_by_one = [make_snippet(text, "", first_chunk=first, terms=terms) for text, first in texts]
    assert snippet_module.make_snippets(texts, terms, matcher) == one_by_one
    again = snippet_module.make_snippets(texts, terms, matcher)
    assert again == one_by_one
    again[0].highlights.clear()  # a reused snippet's highlights are the caller's own list
    assert snippet_module.make_snippets(texts, terms, matcher) == one_by_one


def test_a_chunk_is_made_plain_once_for_every_query_that_shows_it(monkeypatch):
    made_plain: list[str] = []

    def counted(text: str) -> str:
        made_plain.append(text)
        return strip_markdown(text)

    monkeypatch.setattr(snippet_module, "strip_markdown", counted)
    text = "# Garden notes 7731\n\nThe **orchard** needs pruning before the *harbour* festival."
    first = make_snippet(text, "orchard")
    second = make_snippet(text, "harbour festival")  # other terms: another snippet, the same plain text
    assert marked(first) == ["orchard"] and marked(second) == ["harbour", "festival"]
    assert made_plain == [text]


def _best_start_listing_each_window(matches, width):
    """The window rule as first written: each match's window listed anew."""
    best, best_key = 0, (-1, -1)
    for i, (start, _, _) in enumerate(matches):
        inside = [term for pos, _, term in matches[i:] if pos < start + width]
        key = (len(set(inside)), len(inside))
        if key > best_key:
            best, best_key = start, key
    return best


@settings(max_examples=1000, deadline=None)
@given(
    starts=st.lists(st.integers(0, 600), max_size=40, unique=True),
    terms=st.lists(st.sampled_from("abcd"), min_size=40, max_size=40),
    width=st.sampled_from([-1, 0, 1, 20, 50, 240]),
)
def test_the_sliding_window_opens_where_each_window_listed_anew_opens(starts, terms, width):
    matches = [(start, start + 3, term) for start, term in zip(sorted(starts), terms, strict=False)]
    assert snippet_module._best_start(matches, width) == _best_start_listing_each_window(matches, width)
