"""Snippets: the few lines of a chunk that show a person why it matched, with the matched words marked.

- Chunk #0 is stored as `[doc_type] sense` + a blank line + the file's first text, and an extractive
  sense *is* that first text, so showing the chunk whole repeats itself. The snippet shows the text;
  the sense only when the query matches it and not the text (a model-written sense can hold words the
  file never uses).
- Markdown is shown as the text it renders to (engine/markdown_text.py).
- The window is placed where the query's terms are densest (most distinct terms, then most hits), and
  the terms are the keyword index's own (engine/retrieval/terms.py): whole words, stemmed, never a
  stop word. `highlights` are their ranges in the returned text. Cut ends get an ellipsis.
No store is involved: the text comes from the search arms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.markdown_text import strip_markdown
from engine.retrieval.terms import Span, TermMatcher, shared_matcher

_SPACE = re.compile(r"\s+")
_HEAD = re.compile(r"\A\[[^\]\n]{1,40}\][ \t]*")  # the `[doc_type]` tag that opens chunk #0
# A character every rule of strip_markdown needs somewhere, or a line start only a block rule (front
# matter, a rule, a bullet) can use: a text with neither is its own plain form. Running the twenty-odd
# rules on every hit's chunk was the largest part of building a search's snippets.
_MAY_BE_MARKDOWN = re.compile(r"[#*_\[<>|`~!\\]|^[ \t]*(?:[-=+]|\d{1,3}[.)])", re.MULTILINE)
ELLIPSIS = "…"

Match = tuple[int, int, str]


@dataclass(frozen=True)
class Snippet:
    text: str
    highlights: list[Span] = field(default_factory=list)


def split_head(text: str) -> tuple[str, str]:
    """Chunk #0's (sense, text): `[pdf] Lease.\\n\\nThe tenant…` → ("Lease.", "The tenant…"). A chunk
    without the tag is all text."""
    tag = _HEAD.match(text)
    if tag is None:
        return "", text
    head, _, body = text[tag.end() :].partition("\n\n")
    return head.strip(), body


def make_snippet(
    text: str,
    query: str,
    width: int = 240,
    *,
    first_chunk: bool = False,
    matcher: TermMatcher | None = None,
    terms: frozenset[str] | None = None,
) -> Snippet:
    """About `width` characters of `text` around the densest match of `query`, with … at cut ends.
    `first_chunk` says `text` is a chunk #0 (sense head + text); `terms` skips re-stemming the query."""
    matcher = matcher or shared_matcher()
    terms = matcher.query_terms(query) if terms is None else terms
    clean, matches = _shown(text, terms, matcher, first_chunk)
    if len(clean) <= width:
        return Snippet(clean, [(start, end) for start, end, _ in matches])
    start, end = _window(clean, matches, width)
    lead = ELLIPSIS if start > 0 else ""
    piece = clean[start:end]
    trimmed = len(piece) - len(piece.lstrip())
    piece = piece.strip()
    offset = start + trimmed - len(lead)
    spans = [
        (s - offset, e - offset)
        for s, e, _ in matches
        if s >= start + trimmed and e <= start + trimmed + len(piece)
    ]
    return Snippet(lead + piece + (ELLIPSIS if end < len(clean) else ""), spans)


def _shown(
    text: str, terms: frozenset[str], matcher: TermMatcher, first_chunk: bool
) -> tuple[str, list[Match]]:
    """The text to show (plain, one line) and its matches: the body of chunk #0 unless only its sense
    matches, the whole chunk otherwise."""
    sense, body = split_head(text) if first_chunk else ("", text)
    clean = _plain(body)
    matches = matcher.matches(clean, terms)
    if sense and (not clean or not matches):
        clean_sense = _plain(sense)
        sense_matches = matcher.matches(clean_sense, terms)
        if sense_matches or not clean:
            return clean_sense, sense_matches
    return clean, matches


def _plain(text: str) -> str:
    if _MAY_BE_MARKDOWN.search(text):
        text = strip_markdown(text)
    return _SPACE.sub(" ", text).strip()


def _window(clean: str, matches: list[Match], width: int) -> tuple[int, int]:
    """[start, end) of the shown window: a little context before the densest run of matches, cut at
    spaces so no word is split."""
    start = 0
    if matches:
        first = _best_start(matches, width)
        start = max(0, first - width // 5)
        if start:
            space = clean.rfind(" ", 0, start + 1)
            start = space + 1 if space > start - 20 else start
    start = min(start, max(0, len(clean) - width))
    if start and not clean[start - 1].isspace():  # moved back by the clamp: start on a word
        space = clean.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    end = min(len(clean), start + width)
    if end < len(clean):
        space = clean.rfind(" ", start + width // 2, end + 1)
        end = space if space > 0 else end
    return start, end


def _best_start(matches: list[Match], width: int) -> int:
    best, best_key = 0, (-1, -1)
    for i, (start, _, _) in enumerate(matches):
        inside = [term for pos, _, term in matches[i:] if pos < start + width]
        key = (len(set(inside)), len(inside))
        if key > best_key:
            best, best_key = start, key
    return best
