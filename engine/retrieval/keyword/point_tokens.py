"""Term counts of a few chunks computed in Python, identical to the SQL pipeline's (tokenize.py).

A small write (one file, a few chunks) spent 8 ms of CPU tokenising its text in DuckDB, most of it in the
FTS extension's `stem`, which builds a stemmer for every call: stemming the words of ten chunks cost 4 ms.
Here the split is done in Python and each distinct word is stemmed once by DuckDB's own `stem` and then
remembered, so the terms are the extension's exactly and a warm write stems nothing.

Exactness is kept by construction: ASCII text is lower-cased by Python (for ASCII, DuckDB's `strip_accents`
changes nothing and its `lower` is Python's); any other text is lower-cased and accent-stripped by DuckDB's
own functions in one light query. The separator class is tokenize.IGNORE_PATTERN itself and the split is
on RE2's `\\s` (tab, newline, form feed, carriage return, space), both ASCII, so splitting in Python gives
the SQL's tokens for any text. A test compares both on awkward text, ASCII and not.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Sequence

import duckdb

from engine.retrieval.keyword import tokenize
from engine.retrieval.sql_literal import sql_string

LITERAL_WORDS = 1000  # Stems.of writes up to this many new words into its statement, reads more as Arrow
STEMS_KEPT = 200_000  # distinct words remembered (~20 MB); the memory is cleared when it fills


class Stems:
    """word → stem, as DuckDB's `stem(word, 'porter')` answers, remembered across writes. The keys are
    words as tokenize splits them (lower-cased, accents stripped); the same memo serves writes
    (keyword_point.py), queries (query_words.py) and snippets (terms.py) through `shared_stems()`, since
    a word's stem never changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stems: dict[str, str] = {}

    def of(self, cur: duckdb.DuckDBPyConnection, words: set[str]) -> dict[str, str]:
        known = self.known(words)
        missing = [w for w in words if w not in known]
        if not missing:
            return known
        if len(missing) > LITERAL_WORDS or any("\x00" in w for w in missing):
            # as Arrow, read by DuckDB's replacement scan: a list parameter of a few hundred strings took
            # ~100 ms to bind, and register/unregister is a catalog change each; and any word holding a
            # NUL, which DuckDB's parser rejects in a literal
            import pyarrow as pa  # only where Arrow is used: a keyword peek loads none (issue 30)

            point_words = pa.table({"w": pa.array(missing, pa.string())})  # noqa: F841 (read by name)
            source = "point_words"
        else:
            # a few words (a search's snippets, a small write) as one literal split in SQL: the replacement
            # scan costs ~2.5 ms a statement (the client looks the name up in the caller's frames), the
            # literal ~0.5 ms for 30 words. Words are split on white space, so a space separates them.
            source = f"(SELECT unnest(string_split({sql_string(' '.join(missing))}, ' ')) AS w)"
        got = dict(cur.execute(f"SELECT w, stem(w, '{tokenize.STEMMER}') FROM {source}").fetchall())
        known.update(got)
        self.keep(got)
        return known

    def known(self, words: Iterable[str]) -> dict[str, str]:
        """The remembered stems of these words (no statement); a word not remembered is left out."""
        with self._lock:
            return {w: stem for w in words if (stem := self._stems.get(w)) is not None}

    def keep(self, stems: dict[str, str]) -> None:
        """Remember stems read elsewhere (by DuckDB's `stem`, with STEMMER): the memory is cleared when
        it fills."""
        with self._lock:
            if len(self._stems) + len(stems) > STEMS_KEPT:
                self._stems.clear()
            self._stems.update(stems)


_shared = Stems()


def shared_stems() -> Stems:
    """The process's one word → stem memo (a stem is a pure function of the word)."""
    return _shared


def term_counts(cur: duckdb.DuckDBPyConnection, texts: Sequence[str], stems: Stems) -> list[Counter[str]]:
    """Each text's {term: tf}, exactly as keyword_writes.term_counts_sql counts them."""
    words: dict[int, list[str]] = {}
    others: list[int] = []
    for i, text in enumerate(texts):
        found = tokenize.ascii_words(text)
        if found is None:
            others.append(i)
        else:
            words[i] = found
    if others:
        # Not ASCII: DuckDB lower-cases and strips accents (its Unicode rules, not Python's), Python splits
        import pyarrow as pa  # only where Arrow is used: a keyword peek loads none (issue 30)

        point_texts = pa.table({"text": pa.array([texts[i] for i in others], pa.string())})  # noqa: F841
        lowered = cur.execute("SELECT lower(strip_accents(text)) FROM point_texts").fetchall()
        for i, (low,) in zip(others, lowered, strict=True):
            words[i] = tokenize.normalized_words(low or "")
    stem = stems.of(cur, {w for ws in words.values() for w in ws})
    counts: list[Counter[str]] = [Counter() for _ in texts]
    for i, ws in words.items():
        counts[i].update(stem[w] for w in ws)
    return counts
