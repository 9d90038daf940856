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
score (calibrated by `python bench/recoll_known_item.py --calibrate`), and the relevance floor counts it
as keyword evidence (a query of stop words alone has no term, yet the chunk holding it is an answer).
A descriptor chunk (names.name_only: the indexer's own words about a file known by name) is not asked:
its words are not the person's text.

Cost: a compiled pattern per query word; each text is searched for the phrase, then for each word until
one is missing, so most texts stop at their first absent word (a few microseconds each).
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
_IGNORED = re.compile(tokenize.IGNORE_PATTERN)
_SEPARATOR = r"[\W_]+"  # what lies between two words of a text: neither a letter nor a digit
_BEFORE, _AFTER = r"(?<![^\W_])", r"(?![^\W_])"  # a whole word: no letter or digit touches it


def typed_words(query: str) -> tuple[str, ...]:
    """The query's words as the keyword arm splits them (tokenize.py), stop words kept, in order."""
    return tuple(w for w in _IGNORED.sub(" ", query.lower()).split() if w)[:MAX_WORDS]


@lru_cache(maxsize=256)
def _patterns(words: tuple[str, ...]) -> tuple[re.Pattern[str], tuple[re.Pattern[str], ...]]:
    """The phrase's pattern, and one per distinct word (rarest-looking, i.e. longest, first: a text
    usually lacks a long word sooner than a short one)."""
    phrase = re.compile(_BEFORE + _SEPARATOR.join(map(re.escape, words)) + _AFTER, re.IGNORECASE)
    distinct = sorted(set(words), key=lambda w: (-len(w), w))
    return phrase, tuple(re.compile(_BEFORE + re.escape(w) + _AFTER, re.IGNORECASE) for w in distinct)


def strength(words: tuple[str, ...], text: str) -> float:
    """PHRASE when `text` holds `words` in order, ALL_WORDS when it holds each of them, else 0."""
    if not words:
        return 0.0
    phrase, each = _patterns(words)
    if phrase.search(text):
        return PHRASE
    if len(each) > 1 and all(p.search(text) for p in each):
        return ALL_WORDS
    return 0.0


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
        if not skip(key, text):
            found = strength(words, text)
            if found > 0:
                out[key] = found
    return out
