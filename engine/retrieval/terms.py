"""Which words of a shown text are the query's terms, decided by the keyword index's own tokenizer.

Snippets are centred on, and the page highlights, the words the keyword arm actually matched: the
same splitting, accent folding, stop list and Porter stemmer as engine/retrieval/keyword/tokenize.py: an
ASCII word is folded in Python and stemmed by the extension's own libstemmer through PyStemmer
(point_tokens.Stems), any other word by a small in-memory DuckDB with the FTS extension loaded. So
"runs" marks "Running", "categories" marks "category", and nothing marks "is" inside "categorises"
or a stop word anywhere: a match is always a whole token whose stem is one of the query's terms.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import duckdb

from engine.resources import fts_extension_path
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.point_tokens import shared_stems
from engine.retrieval.sql_literal import sql_string

Span = tuple[int, int]

_WORDS = re.compile(rf"(?:(?!{tokenize.IGNORE_PATTERN})\S)+")
_CACHE_LIMIT = 50_000


@dataclass(frozen=True)
class _Word:
    stem: str
    stop: bool


class TermMatcher:
    """Stems words exactly as the keyword index does; thread-safe, with a bounded cache of words seen."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._con: duckdb.DuckDBPyConnection | None = None
        self._words: dict[str, _Word] = {}
        self._stems = shared_stems()  # lower-case ASCII word -> stem, shared with queries and writes

    def _connection(self) -> duckdb.DuckDBPyConnection:
        """The FTS extension (for `stem`) and a `stopwords` table holding tokenize.STOPWORDS, as
        `tokenize.install` makes them, but filled by one statement: its row-by-row insert costs 0.4 s,
        which the first search would wait for."""
        if self._con is None:
            # one thread, as the keyword index's: these are statements of a few words, and with a thread
            # per core the stop-word join of a non-ASCII word's lookup cost 7.9 ms p50 wall instead of 1.3
            # on two loaded cores (a pool's hand-off per statement)
            con = duckdb.connect(":memory:", config={"threads": 1})
            con.execute(f"LOAD {sql_string(str(fts_extension_path()))}")
            con.execute(
                "CREATE TABLE stopwords AS SELECT unnest(string_split($words, ' ')) AS sw",
                {"words": " ".join(sorted(tokenize.STOPWORDS))},
            )
            self._con = con
        return self._con

    @contextlib.contextmanager
    def borrowing(self, con: duckdb.DuckDBPyConnection) -> Iterator[None]:
        """Stem with `con` during the block, when this matcher has opened no connection of its own: one
        with the FTS extension loaded and a `stopwords` table, as the keyword index's (tokenize.install).
        LOADing the extension checks its signature over its 11 MB, ~50 ms of CPU, which the cold keyword
        peek (engine/keyword_peek.py) would otherwise pay a second time before its first line (issue 30).
        The matcher lets go of `con` when the block ends, before its owner closes it; what it stemmed
        meanwhile stays learned."""
        with self._lock:
            borrowed = self._con is None
            if borrowed:
                self._con = con
        try:
            yield
        finally:
            if borrowed:
                with self._lock:
                    self._con = None

    def warm(self) -> threading.Thread:
        """Open the connection on a background thread (LOADing the extension takes a few hundred ms on a
        busy machine), so the first search does not wait for it; the thread, for closing to join."""
        thread = threading.Thread(target=self._open, name="term-matcher-warm", daemon=True)
        thread.start()
        return thread

    def _open(self) -> None:
        with self._lock:
            self._connection()

    def query_terms(self, query: str) -> frozenset[str]:
        """The query's stemmed terms, by the very SQL the keyword arm runs."""
        if not query.strip():
            return frozenset()
        with self._lock:
            cur = self._connection().cursor()
            try:
                rows = cur.execute(
                    f"SELECT * FROM ({tokenize.query_terms_sql('$q')})", {"q": query}
                ).fetchall()
            finally:
                cur.close()
        return frozenset(row[0] for row in rows if row[0])

    def stems(self, words: Iterable[str]) -> dict[str, str]:
        """Each word's stem as the keyword index stems it, "" for a stop word (names.NameIndex's words)."""
        return {word: "" if found.stop else found.stem for word, found in self._lookup(words).items()}

    def _lookup(self, words: Iterable[str]) -> dict[str, _Word]:
        """Each word's stem and stop flag. An ASCII word is folded and checked against the stop list in
        Python (for ASCII, DuckDB's `lower(strip_accents(w))` is Python's `lower`) and its stem comes from
        the process's word → stem memo (point_tokens.shared_stems), which the query's own words are
        already in; only words new to it are stemmed (in Python). Other words take the SQL here."""
        wanted = set(words)
        with self._lock:
            missing = [w for w in wanted if w not in self._words]
            if missing:
                if len(self._words) + len(missing) > _CACHE_LIMIT:  # forget the oldest half
                    for old in list(self._words)[: max(len(self._words) // 2, len(missing))]:
                        del self._words[old]
                plain = [w for w in missing if w.isascii()]
                if plain:
                    self._words.update(self._ascii_lookup(plain))
                others = [w for w in missing if not w.isascii()]
                if others:
                    self._words.update(self._sql_lookup(others))
            return {w: self._words[w] for w in wanted}

    def _ascii_lookup(self, words: list[str]) -> dict[str, _Word]:
        """Stem and stop flag of ASCII words: folded in Python, stems from the shared memo, the new ones
        stemmed by it in Python (point_tokens.Stems.of, no statement) and remembered there."""
        return self._stemmed({w: w.lower() for w in words})

    def _sql_lookup(self, words: list[str]) -> dict[str, _Word]:
        """Stem and stop flag of words folded by DuckDB's own `lower(strip_accents(w))` (non-ASCII words,
        whose Unicode folding Python's need not match), in one light statement; the stop list and the
        stem are then looked up in Python, as for ASCII words (the same list, the same stemmer). With the
        stop list's join and `stem` in it, the statement cost 3-6 ms on two loaded cores (issue 30)."""
        joined = "\n".join(words)  # words are split on white space: no newline in one
        fold = "SELECT w, lower(strip_accents(w)) FROM (SELECT unnest(string_split({}, chr(10))) AS w)"
        cur = self._connection().cursor()
        try:
            if "\x00" in joined:  # DuckDB's parser rejects a NUL in a literal: bound (and dearer)
                rows = cur.execute(fold.format("$words"), {"words": joined}).fetchall()
            else:
                rows = cur.execute(fold.format(sql_string(joined))).fetchall()
        finally:
            cur.close()
        return self._stemmed({word: low or "" for word, low in rows})

    def _stemmed(self, folded: dict[str, str]) -> dict[str, _Word]:
        """Each word's stem and stop flag from its folded form (`folded`: word -> lower-cased, accents
        stripped): the stop list in Python, the stem from the shared memo (point_tokens.Stems)."""
        stems = self._stems.of(set(folded.values()))
        return {
            w: _Word(stems.get(low) or "", low in tokenize.STOPWORDS or not low) for w, low in folded.items()
        }

    def matches(self, text: str, terms: frozenset[str]) -> list[tuple[int, int, str]]:
        """(start, end, term) of every whole word of `text` whose stem is one of `terms`; a stop word
        never matches. The Porter stemmer only rewrites a word's ending, so an ASCII word that begins with
        none of the terms (less their last STEM_SLACK characters) cannot match and is not stemmed (most
        words of a hit's chunk: stemming them was a statement per snippet, behind the matcher's lock)."""
        if not terms or not text:
            return []
        found = candidate_words(text, terms)
        known = self._lookup(word for _, _, word in found)
        return [(start, end, known[word].stem) for start, end, word in found if _is_term(known[word], terms)]

    def learn(self, texts: Iterable[str], terms: frozenset[str]) -> None:
        """Stem together the words of several texts that `matches` will look at (a search's snippets:
        the non-ASCII words among them in one statement, not one per snippet)."""
        if terms:
            self._lookup(word for text in texts for _, _, word in candidate_words(text, terms))

    def spans(self, text: str, terms: frozenset[str]) -> list[Span]:
        """[start, end) of the words `matches` finds."""
        return [(start, end) for start, end, _ in self.matches(text, terms)]

    def close(self) -> None:
        with self._lock:
            if self._con is not None:
                self._con.close()
                self._con = None


_WORD_CHAR = "[^\\s" + tokenize.IGNORE_PATTERN[1:-2] + "]"  # what _WORDS repeats: not space, not ignored


# How many of a term's last characters a word that stems to it may differ in. The Porter stemmer keeps a
# word's beginning and rewrites its ending: it removes a suffix, or puts one in its place that shares all
# but its last character with it ("ational" -> "ate", "enci" -> "ence", "y" -> "i"), or adds one letter
# ("conflat" -> "conflate"), so a stem less its last character begins the word (checked with DuckDB's own
# `stem` on the 123k distinct words of /usr/share/dict/words and SciFact: none differs in more than its
# last). One more is allowed for safety; tests/retrieval/test_snippet.py checks the rule on suffixed words.
STEM_SLACK = 2


def _heads(terms: frozenset[str]) -> tuple[str, ...]:
    """Each term less its last STEM_SLACK characters (at least its first), sorted: the beginnings a word
    that stems to one of `terms` must start with (in either case)."""
    return tuple(sorted({term[: max(1, len(term) - STEM_SLACK)] for term in terms if term}))


@functools.lru_cache(maxsize=256)
def _candidates(terms: frozenset[str]) -> re.Pattern[str]:
    """The words of a text (as _WORDS finds them) that may stem to one of `terms`: those beginning, in
    either case, with a term less its last STEM_SLACK characters (at least its first letter), and every
    word with a non-ASCII letter (whose case and accents DuckDB folds its own way). No other word can
    stem to a term (STEM_SLACK), and the regex engine skips them without a Python step per word: a
    search's snippets stem only the words that are likely matches, not every word sharing a first letter."""
    heads = [re.escape(head) for head in _heads(terms)]
    first = f"(?i:{'|'.join(heads)}){_WORD_CHAR}*|" if heads else ""
    return re.compile(f"(?<!{_WORD_CHAR})(?:{first}{_WORD_CHAR}*[^\\s\\x00-\\x7f]{_WORD_CHAR}*)")


_IS_WORD_CHAR = re.compile(_WORD_CHAR)
_WORD_REST = re.compile(f"{_WORD_CHAR}*")
# The ASCII characters _WORD_CHAR does not match: where candidate_words searches ASCII text, a set lookup
# of the character before a head tells a word's start, where a regex match per found head cost ~0.3 µs.
_ASCII_NOT_WORD = frozenset(c for c in map(chr, range(128)) if not _IS_WORD_CHAR.match(c))


@functools.lru_cache(maxsize=256)
def _ascii_heads(terms: frozenset[str]) -> tuple[str, ...] | None:
    """`_heads(terms)`, or None when one is not ASCII: under IGNORECASE a non-ASCII letter can match an
    ASCII one (the long s matches "s"), which a plain search of the lower-cased text would miss."""
    heads = _heads(terms)
    return heads if all(head.isascii() for head in heads) else None


def candidate_words(text: str, terms: frozenset[str]) -> list[tuple[int, int, str]]:
    """(start, end, word) of every match of `_candidates(terms)` in `text`, in order.

    An ASCII text (every snippet of an English collection) is searched with `str.find` per head in its
    lower-cased copy, where the regex tried its lookbehind and every alternative at each position, and
    scanned each word for a non-ASCII letter: 30-47 -> 3-4 µs for a 765-character chunk and four terms
    (a search looks at ~30 such texts; load 1.8). The same words: a match starts where a head begins a word
    (no word character before it) and runs to the word's end, heads and words being made of word
    characters (the tokenizer splits on the rest); tests/retrieval/test_snippet.py compares the two."""
    heads = _ascii_heads(terms)
    if heads is None or not text.isascii():
        return [(m.start(), m.end(), m.group()) for m in _candidates(terms).finditer(text)]
    low = text.lower()
    starts = set()
    for head in heads:
        at = low.find(head)
        while at >= 0:
            if at == 0 or low[at - 1] in _ASCII_NOT_WORD:
                starts.add(at)
            at = low.find(head, at + 1)
    found = []
    for start in sorted(starts):
        end = _WORD_REST.match(text, start).end()  # type: ignore[union-attr]  # `*` always matches
        found.append((start, end, text[start:end]))
    return found


def _is_term(word: _Word, terms: frozenset[str]) -> bool:
    return not word.stop and word.stem in terms


_shared: TermMatcher | None = None
_shared_lock = threading.Lock()


def shared_matcher() -> TermMatcher:
    """One matcher per process (its DuckDB connection and cache serve every search)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = TermMatcher()
        return _shared
