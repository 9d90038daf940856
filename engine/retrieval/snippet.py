"""Snippets: the few lines of a chunk that show a person why it matched.

The window is placed where the query's words are densest (most distinct words, then most hits),
matching words by a stem-ish prefix so "running" finds "runs". Cut ends get an ellipsis. No store
is involved: the text comes from the vector table.
"""

from __future__ import annotations

import re

from engine.retrieval.tokenize import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)
_SPACE = re.compile(r"\s+")
ELLIPSIS = "…"


_SUFFIXES = ("ing", "ies", "es", "ed", "ly", "er", "s")


def query_stems(query: str) -> list[str]:
    """Lower-cased prefixes of the query's content words ("running" → "runn", "cats" → "cat")."""
    stems = []
    for word in _WORD.findall(query.lower()):
        if word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
            continue
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        stems.append(word)
    return list(dict.fromkeys(stems))


def _matches(text: str, stems: list[str]) -> list[tuple[int, int]]:
    """(start offset, stem number) of every word of `text` that begins with a query stem."""
    found = []
    lowered = text.lower()
    for match in _WORD.finditer(lowered):
        for number, stem in enumerate(stems):
            if match.group().startswith(stem):
                found.append((match.start(), number))
                break
    return found


def _best_start(matches: list[tuple[int, int]], width: int) -> int:
    best, best_key = 0, (-1, -1)
    for i, (start, _) in enumerate(matches):
        inside = [number for pos, number in matches[i:] if pos < start + width]
        key = (len(set(inside)), len(inside))
        if key > best_key:
            best, best_key = start, key
    return best


def make_snippet(text: str, query: str, width: int = 240) -> str:
    """About `width` characters of `text` around the densest match of `query`, with … at cut ends."""
    clean = _SPACE.sub(" ", text).strip()
    if len(clean) <= width:
        return clean
    matches = _matches(clean, query_stems(query))
    start = 0
    if matches:
        first = _best_start(matches, width)
        start = max(0, first - width // 5)  # a little context before the first matching word
        if start:
            space = clean.rfind(" ", 0, start + 1)
            start = space + 1 if space > start - 20 else start
    start = min(start, max(0, len(clean) - width))
    end = min(len(clean), start + width)
    if end < len(clean):
        space = clean.rfind(" ", start + width // 2, end + 1)
        end = space if space > 0 else end
    piece = clean[start:end].strip()
    return (ELLIPSIS if start > 0 else "") + piece + (ELLIPSIS if end < len(clean) else "")
