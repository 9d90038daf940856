"""Snippets: the few lines of a chunk that show a person why it matched, with the matched words marked.

- Chunk #0 is stored as `[doc_type] sense` + a blank line + the file's first text, and an extractive
  sense *is* that first text, so showing the chunk whole repeats itself. The snippet shows the text;
  the sense only when the query matches it and not the text (a model-written sense can hold words the
  file never uses).
- Markdown is shown as the text it renders to (engine/markdown_text.py).
- The window is placed where the query's terms are densest (most distinct terms, then most hits), and
  the terms are the keyword index's own (engine/retrieval/terms.py): whole words, stemmed, never a
  stop word. `highlights` are their ranges in the returned text. Cut ends get an ellipsis.
No store is involved: the text comes from the search arms. A search makes its page's snippets together
(`make_snippets`): each text is cleaned and searched for candidate words once, all their new words are
stemmed in one statement, and a snippet already made for the same text and terms (the page's keyword list
and then its fused list, a query typed again) is reused.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.markdown_text import strip_markdown
from engine.retrieval.terms import Span, TermMatcher, candidate_words, shared_matcher

_HEAD = re.compile(r"\A\[[^\]\n]{1,40}\][ \t]*")  # the `[doc_type]` tag that opens chunk #0
# A character every rule of strip_markdown needs somewhere, or a line start only a block rule (front
# matter, a rule, a bullet) can use: a text with neither is its own plain form. Running the twenty-odd
# rules on every hit's chunk was the largest part of building a search's snippets.
_MAY_BE_MARKDOWN = re.compile(r"[#*_\[<>|`~!\\]|^[ \t]*(?:[-=+]|\d{1,3}[.)])", re.MULTILINE)
ELLIPSIS = "…"

Match = tuple[int, int, str]
KEPT_SNIPPETS = 1024  # snippets reused by (text, terms, chunk #0 or not, width): ~0.5 MB of 240-char texts


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
    return make_snippets([(text, first_chunk)], terms, matcher, width)[0]


def make_snippets(
    texts: Sequence[tuple[str, bool]], terms: frozenset[str], matcher: TermMatcher, width: int = 240
) -> list[Snippet]:
    """`make_snippet` of each (text, is chunk #0) for the query's stemmed `terms`: a snippet made before
    for the same text and terms is reused, each other text is cleaned and searched for candidate words
    once, and their words are stemmed together (one statement for the words new to the matcher)."""
    keys = [(text, terms, first_chunk, width) for text, first_chunk in texts]
    made = _made.get_many(keys)
    todo = [i for i, key in enumerate(keys) if key not in made]
    cleaned = [_Cleaned.of(*texts[i], terms) for i in todo]
    stems = matcher.stems(word for one in cleaned for _, _, word in one.found) if terms else {}
    for i, one in zip(todo, cleaned, strict=True):
        clean, matches = one.shown(terms, matcher, stems)
        made[keys[i]] = _cut(clean, matches, width)
    _made.keep({keys[i]: made[keys[i]] for i in todo})
    return [Snippet(made[key].text, list(made[key].highlights)) for key in keys]


def _cut(clean: str, matches: list[Match], width: int) -> Snippet:
    """The window of `clean` to show, with its highlights."""
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


@dataclass(frozen=True)
class _Cleaned:
    """A chunk's plain body, the words of it that may be query terms, and its sense (chunk #0's head)."""

    sense: str
    clean: str
    found: list[Match]

    @staticmethod
    def of(text: str, first_chunk: bool, terms: frozenset[str]) -> _Cleaned:
        sense, body = split_head(text) if first_chunk else ("", text)
        clean = _plain(body)
        return _Cleaned(sense, clean, candidate_words(clean, terms) if terms and clean else [])

    def shown(
        self, terms: frozenset[str], matcher: TermMatcher, stems: dict[str, str]
    ) -> tuple[str, list[Match]]:
        """The text to show (plain, one line) and its matches: the body of chunk #0 unless only its sense
        matches, the whole chunk otherwise (the sense's words are stemmed only when it is looked at)."""
        matches = _terms_in(self.found, terms, stems)
        if self.sense and (not self.clean or not matches):
            clean_sense = _plain(self.sense)
            sense_matches = matcher.matches(clean_sense, terms)
            if sense_matches or not self.clean:
                return clean_sense, sense_matches
        return self.clean, matches


def _terms_in(found: list[Match], terms: frozenset[str], stems: dict[str, str]) -> list[Match]:
    """(start, end, term) of the candidate words whose stem is a query term ("" is a stop word's)."""
    return [(start, end, stem) for start, end, word in found if (stem := stems[word]) and stem in terms]


@functools.lru_cache(maxsize=KEPT_SNIPPETS)
def _plain(text: str) -> str:
    """One line of plain text. `str.split` splits on exactly the characters `\\s` matches (both ask
    `Py_UNICODE_ISSPACE`), at a third of a regex substitution's cost. Kept per text: a chunk's plain form
    does not depend on the query, and queries typed one after another show the same chunks with other
    terms (a third of a keyword-only query's snippet CPU was this, for texts made plain before)."""
    if _MAY_BE_MARKDOWN.search(text):
        text = strip_markdown(text)
    return " ".join(text.split())


class _Memo:
    """The last KEPT_SNIPPETS snippets, by (text, terms, first_chunk, width); a snippet depends on nothing
    else (stems never change), so one is never stale."""

    def __init__(self, kept: int = KEPT_SNIPPETS):
        self._kept = kept
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, frozenset[str], bool, int], Snippet] = OrderedDict()

    def get_many(
        self, keys: list[tuple[str, frozenset[str], bool, int]]
    ) -> dict[tuple[str, frozenset[str], bool, int], Snippet]:
        with self._lock:
            found = {key: self._entries[key] for key in keys if key in self._entries}
            for key in found:
                self._entries.move_to_end(key)
            return found

    def keep(self, snippets: dict[tuple[str, frozenset[str], bool, int], Snippet]) -> None:
        with self._lock:
            self._entries.update(snippets)
            for key in snippets:
                self._entries.move_to_end(key)
            while len(self._entries) > self._kept:
                self._entries.popitem(last=False)


_made = _Memo()


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
    """The start of the match that opens the window of `width` holding the most distinct terms, then the
    most matches; the first such. `matches` are in text order, so the window's matches are a run that a
    second index slides over (a code chunk can hold dozens of matches of one term: listing each match's
    window anew was quadratic, the largest part of its snippet's cost)."""
    if width <= 0:  # no match fits in a window: every key ties, the first match wins
        return matches[0][0] if matches else 0
    best, best_key = 0, (-1, -1)
    held: dict[str, int] = {}
    end = 0
    for i, (start, _, term) in enumerate(matches):
        while end < len(matches) and matches[end][0] < start + width:
            held[matches[end][2]] = held.get(matches[end][2], 0) + 1
            end += 1
        key = (len(held), end - i)
        if key > best_key:
            best, best_key = start, key
        held[term] -= 1
        if not held[term]:
            del held[term]
    return best
