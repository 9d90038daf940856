"""The query's words as typed, found in a hit's text: the known-item signal BM25 cannot give (issue 28).

A person who copies three to five words from a document ("paid into the account", "March 2024 eight",
"services programmes") means the document that holds them. BM25 cannot see that: stop words are not
terms (documents and queries drop them alike, tokenize.py), a stem matches every form of a word
("checked" and "check"), and a sum of common terms' scores lets a document holding one term many times
(a series of payslips of one template) outrank the one holding every word. Recoll, which requires every
word of a query, found the document in its first ten for 60 of 60 such queries where we found 57
(bench/recoll_known_item.py).

So each candidate chunk (both arms' hits, whose text search has read anyway) is asked whether it holds
the query's words as typed, stop words included, each a whole word, case aside:

* all of them in the query's order, separated by nothing but spaces and punctuation: PHRASE (1.0);
* all of them, in any order and place: ALL_WORDS (0.5, the coordination of the classic vector-space
  engines: a hit that holds every word ranks above one that holds some);
* otherwise 0.

`fusion.with_phrases` moves a hit that strength times `hybrid.PHRASE_WEIGHT` of the way to the top
score (chosen by `python bench/calibrate_phrase.py`), and the relevance floor counts it
as keyword evidence (a query of stop words alone has no term, yet the chunk holding it is an answer).
A descriptor chunk (names.name_only: the indexer's own words about a file known by name) is not asked:
its words are not the person's text.

Cost: each candidate's text is lower-cased and asked, by plain substring tests, whether it holds every
word at all; only the texts that do are searched with the (cached, compiled) whole-word patterns. A
text's strength is kept (by the words and the text): the keyword arm's texts are asked `ahead`, while the
vector search runs, so after both arms only the vector arm's own texts are asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TypeVar

from engine.retrieval.keyword import tokenize

Key = TypeVar("Key")

PHRASE = 1.0
ALL_WORDS = 0.5
MAX_WORDS = 32  # a longer query (a pasted paragraph) is asked about its first 32 words
KEPT = 1024  # strengths kept by (words, text): a search asks ~100 texts, the page's two calls the same ones
_IGNORED = re.compile(tokenize.IGNORE_PATTERN)
_SEPARATOR = r"[\W_]+"  # what lies between two words of a text: neither a letter nor a digit


def typed_words(query: str) -> tuple[str, ...]:
    """The query's words as the keyword arm splits them (tokenize.py), stop words kept, in order."""
    return tuple(w for w in _IGNORED.sub(" ", query.lower()).split() if w)[:MAX_WORDS]


@lru_cache(maxsize=256)
def _patterns(words: tuple[str, ...]) -> tuple[tuple[str, ...], re.Pattern[str]]:
    """The distinct words (longest first: a text usually lacks a long word sooner than a short one) and
    the phrase's pattern over lower-cased text. The pattern starts with a literal, so the regex engine
    finds its candidates by a fast scan; whole-word boundaries are checked on each candidate (`_whole`),
    not by look-arounds, which cost ~40 us a KB of text."""
    distinct = tuple(sorted(set(words), key=lambda w: (-len(w), w)))
    return distinct, re.compile(_SEPARATOR.join(map(re.escape, words)))


def _alnum(text: str, at: int) -> bool:
    return 0 <= at < len(text) and text[at].isalnum()


def _whole(low: str, find: Callable[[int], tuple[int, int] | None]) -> bool:
    """Whether one of the spans `find(from)` gives (the next at or after `from`) is a whole word: no
    letter or digit right before or after it."""
    at = 0
    while (span := find(at)) is not None:
        start, end = span
        if not _alnum(low, start - 1) and not _alnum(low, end):
            return True
        at = start + 1
    return False


def strength(words: tuple[str, ...], text: str) -> float:
    """PHRASE when `text` holds `words` in order, ALL_WORDS when it holds each of them, else 0. A text
    lacking one of the words even inside another word is done after plain substring tests."""
    if not words:
        return 0.0
    distinct, phrase = _patterns(words)
    low = text.lower()
    for word in distinct:  # a loop, not all(): most texts lack the first word, and a generator costs more
        if word not in low:
            return 0.0

    def phrase_at(at: int) -> tuple[int, int] | None:
        found = phrase.search(low, at)
        return None if found is None else found.span()

    if _whole(low, phrase_at):
        return PHRASE
    if len(distinct) > 1 and all(_whole(low, _word_at(low, w)) for w in distinct):
        return ALL_WORDS
    return 0.0


def _word_at(low: str, word: str) -> Callable[[int], tuple[int, int] | None]:
    def find(at: int) -> tuple[int, int] | None:
        start = low.find(word, at)
        return None if start < 0 else (start, start + len(word))

    return find


def strengths(
    query: str, texts: Mapping[Key, str], skip: Callable[[Key, str], bool] = lambda key, text: False
) -> dict[Key, float]:
    """Key -> the strength (above 0) of each text that holds the query's words; `skip(key, text)` says
    which texts are not asked (descriptor chunks)."""
    words = typed_words(query)
    if not words:
        return {}
    out = {}
    for key, text in texts.items():
        found = _kept_strength(words, text)
        if found > 0 and not skip(key, text):  # asked only of the few that hold the words
            out[key] = found
    return out


@lru_cache(maxsize=KEPT)
def _kept_strength(words: tuple[str, ...], text: str) -> float:
    return strength(words, text)


def ahead(query: str, texts: Mapping[Key, str]) -> None:
    """Work out the strengths of `texts` now and keep them (the keyword arm's texts, while the vector
    search runs): `strengths` after both arms then asks only the texts the vector arm brought (issue 30:
    the work after the arms, ≤ 1.5 ms at 100k chunks)."""
    strengths(query, texts)
