"""Term counts of a few chunks computed in Python, identical to the SQL pipeline's (tokenize.py).

A small write (one file, a few chunks) spent 8 ms of CPU tokenising its text in DuckDB, most of it in the
FTS extension's `stem`, which builds a stemmer for every call: stemming the words of ten chunks cost 4 ms.
Here the split is done in Python and each distinct word is stemmed once by the extension's own stemmer
(Snowball's libstemmer, through PyStemmer) and then remembered, so the terms are the extension's exactly
and a warm write stems nothing.

Exactness is kept by construction: ASCII text is lower-cased by Python (for ASCII, DuckDB's `strip_accents`
changes nothing and its `lower` is Python's); any other text is lower-cased and accent-stripped by DuckDB's
own functions in one light query. The separator class is tokenize.IGNORE_PATTERN itself and the split is
on RE2's `\\s` (tab, newline, form feed, carriage return, space), both ASCII, so splitting in Python gives
the SQL's tokens for any text. A test compares both on awkward text, ASCII and not.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Collection, Iterable, Sequence

import duckdb
import Stemmer

from engine.retrieval.keyword import tokenize
from engine.retrieval.sql_literal import fit_sql_text, sql_string

STEMS_KEPT = 200_000  # distinct words remembered (~20 MB); the memory is cleared when it fills
# Texts not ASCII that are folded by DuckDB as literals in the SQL text (more go through Arrow: `_folded`).
FOLDED_LITERALS = 16


class Stems:
    """word → stem, as DuckDB's `stem(word, 'porter')` answers, remembered across writes. The keys are
    words as tokenize splits them (lower-cased, accents stripped); the same memo serves writes
    (keyword_point.py), queries (query_words.py) and snippets (terms.py) through `shared_stems()`, since
    a word's stem never changes.

    The stems come from PyStemmer, the Python binding of Snowball's libstemmer, whose Porter stemmer is
    the one the FTS extension compiles in: no DuckDB statement. Asking DuckDB cost a statement wherever a
    word was new (~0.5 ms for a few words, 3 ms at times on two loaded cores): for a search, the vector
    arm's files' snippets and coordination's words, after both arms were in (issue 30).
    tests/retrieval/test_stems_of.py compares the two on awkward words and on every word of the
    standard library's sources; bench/stems_check.py on the machine's whole real-text vocabulary."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stems: dict[str, str] = {}
        # a Stemmer object is not thread-safe (PyStemmer's docs): it is used under the lock. Its own
        # cache is off: this memo is the one kept.
        self._stemmer = Stemmer.Stemmer(tokenize.STEMMER, 0)

    def of(self, words: Collection[str]) -> dict[str, str]:
        """Each word's stem: remembered, or stemmed now and remembered."""
        known = self.known(words)
        missing = [w for w in words if w not in known]
        if not missing:
            return known
        with self._lock:
            got = dict(zip(missing, self._stemmer.stemWords(missing), strict=True))
        known.update(got)
        self.keep(got)
        return known

    def known(self, words: Iterable[str]) -> dict[str, str]:
        """The remembered stems of these words (no statement); a word not remembered is left out."""
        with self._lock:
            return {w: stem for w in words if (stem := self._stems.get(w)) is not None}

    def keep(self, stems: dict[str, str]) -> None:
        """Remember stems read elsewhere (by DuckDB's `stem`, with STEMMER, or by `of`): the memory is
        cleared when it fills."""
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
        for i, low in zip(others, _folded(cur, [texts[i] for i in others]), strict=True):
            words[i] = tokenize.normalized_words(low or "")
    stem = stems.of({w for ws in words.values() for w in ws})
    counts: list[Counter[str]] = [Counter() for _ in texts]
    for i, ws in words.items():
        counts[i].update(stem[w] for w in ws)
    return counts


def _folded(cur: duckdb.DuckDBPyConnection, texts: list[str]) -> list[str | None]:
    """DuckDB's `lower(strip_accents(text))` of each text. A few texts go into the SQL text, one column
    each (one row: the order is the columns'): read from Arrow by a replacement scan, the statement cost
    ~1.5 ms more, the client's look-up of the table's name among the callers' frames and pyarrow.dataset's
    Scanner (docs/keyword-writes.md, Session 9). Text holding a NUL stays on Arrow: DuckDB's parser rejects
    it in a literal."""
    if fit_sql_text(texts, FOLDED_LITERALS):
        columns = ", ".join(f"lower(strip_accents({sql_string(text)}))" for text in texts)
        row = cur.execute(f"SELECT {columns}").fetchone()
        assert row is not None
        return list(row)
    import pyarrow as pa  # only where Arrow is used: a keyword peek loads none (issue 30)

    point_texts = pa.table({"text": pa.array(texts, pa.string())})  # noqa: F841 (read by name)
    return [low for (low,) in cur.execute("SELECT lower(strip_accents(text)) FROM point_texts").fetchall()]
