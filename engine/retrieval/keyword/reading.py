"""The keyword index's read side: BM25 search, the query's terms, the path words, stored texts and counts.

A query is its terms' ids (`query.py`, `query_words.py`, kept until the next write), their postings
(`postings_cache.py`, read once then kept in memory), a sum and top-k over them with removed and
out-of-scope chunks masked (`chunk_filter.py`), and one read of the k winners' rows with their text, for
snippets (fetching it from LanceDB afterwards cost ~5 ms a search at 100k chunks). Scores equal DuckDB
FTS's `match_bm25` on the same corpus (tests/retrieval/test_keyword_scoring.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import numpy as np

from engine.paths import subtree_range
from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.keyword.base import KeywordBase
from engine.retrieval.keyword.change_count import changed_sql
from engine.retrieval.keyword.chunk_rows import Row
from engine.retrieval.keyword.damage import store_error
from engine.retrieval.keyword.postings_cache import compact_ids, held_terms, split_by_term, top_k
from engine.retrieval.keyword.query import NO_TERMS, KeywordAnswer, QueryTerms, read_query_terms
from engine.retrieval.keyword.resident_terms import live_count
from engine.retrieval.keyword.stop_words import stop_word_hits
from engine.retrieval.names import NameIndex


class KeywordReading(KeywordBase):
    """The reads of `KeywordIndex` (module docstring)."""

    def name_scores(self, terms: frozenset[str], scope: str | None = None) -> dict[str, float]:
        """path -> its name score for these stemmed query terms (names.py)."""
        return self._filled_names().scores(terms, scope)

    def folders(self, scope: str | None = None) -> list[str]:
        """The folders that tell indexed files apart (names.NameIndex.folders; folder_names.py)."""
        return self._filled_names().folders(scope)

    def beneath(self, scores: dict[str, float], scope: str | None = None) -> dict[str, float]:
        """path -> the best score of the folders above it (names.NameIndex.beneath)."""
        return self._filled_names().beneath(scores, scope)

    def _filled_names(self) -> NameIndex:
        """The path words; the first call reads every indexed path, under the write lock so no write
        falls between the read and the hooks."""
        if not self._names.filled:
            with self._write_lock:
                if not self._names.filled:
                    try:
                        rows = self._reader().execute("SELECT DISTINCT path FROM chunks").fetchall()
                    except duckdb.Error as exc:
                        raise store_error("read the indexed paths for name search", exc) from exc
                    self._names.fill(row[0] for row in rows)
        return self._names

    def search(self, query: str, k: int = 50, scope: str | None = None) -> list[Hit]:
        """The k best chunks for `query` by BM25, optionally only under the folder (or file) `scope`."""
        return self.search_with_text(query, k, scope)[0]

    def search_with_text(
        self, query: str, k: int = 50, scope: str | None = None
    ) -> tuple[list[Hit], dict[ChunkKey, str]]:
        """`search`, plus the text of every hit."""
        answer = self.answer(query, k, scope)
        return answer.hits, answer.texts

    def answer(self, query: str, k: int = 50, scope: str | None = None) -> KeywordAnswer:
        """The k best chunks with their text, and the query's terms and reference score (what hybrid
        search fuses and marks in snippets). The sum and top-k run over the terms' postings in memory
        (postings_cache.py); only the k winners are read back, with their text, for snippets."""
        cur = self._reader()
        try:
            terms = self._query_terms(cur, query)
            if not terms.terms:  # stop words alone: found by their text (keyword/stop_words.py)
                return KeywordAnswer(*stop_word_hits(cur, query, k, scope), terms)
            hits, texts, held = self._best(cur, list(terms.tids), k, scope, len(terms.terms) > 1)
        except duckdb.Error as exc:
            raise store_error(f"search the keyword index for {query[:80]!r}", exc) from exc
        self._keep_postings()
        return KeywordAnswer(hits, texts, terms, held)

    def _keep_postings(self) -> None:
        """After the first answer since an open or a change of every term, read the rarer terms' postings
        in the background (resident_postings.py), so later queries read none of theirs."""
        if not self._postings.has_resident():
            self._loading.start(self._root.cursor, self._postings.generation())

    def _best(
        self, cur: duckdb.DuckDBPyConnection, tids: list[int], k: int, scope: str | None, count_held: bool
    ) -> tuple[list[Hit], dict[ChunkKey, str], dict[ChunkKey, int]]:
        """The k best chunks with their text, and, when `count_held`, how many of the query's terms each
        holds (postings_cache.held_terms)."""
        if not tids or k <= 0:
            return [], {}, {}
        postings = self._term_postings(cur, tids)
        inside = None if scope is None else self._scope_ids(cur, scope)
        best = top_k(postings, k, self._filter.scope_mask(inside), self._filter.dead)
        if not best:
            return [], {}, {}
        winners = [chunk_id for chunk_id, _ in best]
        held_by_id = held_terms(postings, winners) if count_held else {}
        rows = self._kept_winners(cur, winners)
        hits, texts, held = [], {}, {}
        for chunk_id, score in best:
            if chunk_id in rows:  # a chunk removed since its postings were read is skipped
                path, index, text = rows[chunk_id]
                hit = Hit(path, int(index), score)
                hits.append(hit)
                texts[hit.key] = text or ""
                if chunk_id in held_by_id:
                    held[hit.key] = held_by_id[chunk_id]
        return hits, texts, held

    def _kept_winners(self, cur: duckdb.DuckDBPyConnection, ids: list[int]) -> dict[int, Row]:
        """`_winners`, from the rows kept since the last write where it can (chunk_rows.py)."""
        read_at = self._writes
        rows = self._rows.get_many(ids, read_at)
        missing = [chunk_id for chunk_id in ids if chunk_id not in rows]
        if missing:
            fetched = self._winners(cur, missing)
            self._rows.put_many(fetched, read_at)
            rows.update(fetched)
        return rows

    @staticmethod
    def _winners(cur: duckdb.DuckDBPyConnection, ids: list[int]) -> dict[int, tuple[str, int, str]]:
        """Chunk id -> (path, chunk index, text) of the top-k's chunks (a removed one is absent)."""
        wanted = ", ".join(str(chunk_id) for chunk_id in ids)  # integers from our own table
        sql = f"SELECT id, path, chunk_index, text FROM chunks WHERE id IN ({wanted})"
        return {row[0]: row[1:] for row in cur.execute(sql).fetchall()}

    def _term_postings(
        self, cur: duckdb.DuckDBPyConnection, tids: list[int]
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each term's (chunk ids, impacts): from the cache, the rest in one read (then cached)."""
        read_at = self._postings.generation()
        found = self._postings.get_many(tids)
        missing = [tid for tid in tids if tid not in found]
        if missing:
            got = cur.execute(postings_sql(missing)).fetchnumpy()
            fetched = split_by_term(
                np.asarray(got["tid"]),
                compact_ids(np.asarray(got["chunk_id"], dtype=np.int64)),
                np.asarray(got["w"], dtype=np.float32),
            )
            for tid in missing:
                entry = fetched.get(tid, (np.zeros(0, np.int64), np.zeros(0, np.float32)))
                self._postings.put(tid, entry, read_at)
                found[tid] = entry
        return [found[tid] for tid in tids]

    def _scope_ids(self, cur: duckdb.DuckDBPyConnection, scope: str) -> np.ndarray:
        """The chunk ids under `scope`, sorted: kept from an earlier query if no write ended since."""
        generation = self._writes
        inside = self._filter.scope_ids(scope, generation)
        if inside is None:
            inside = self._filter.keep_scope(scope, generation, self._chunk_ids_under(cur, scope))
        return inside

    @staticmethod
    def _chunk_ids_under(cur: duckdb.DuckDBPyConnection, scope: str) -> np.ndarray:
        """The ids of the chunks in `scope` (the file, or the folder and everything beneath it)."""
        low, high = subtree_range(scope)
        got = cur.execute(
            "SELECT id FROM chunks WHERE path = ? OR (path >= ? AND path < ?)", [scope, low, high]
        ).fetchnumpy()
        return np.asarray(got["id"], dtype=np.int64)

    def wait_for_postings(self, timeout: float | None = None) -> None:
        """Wait for the background read of the postings, if one is running (benchmarks)."""
        self._loading.wait(timeout)

    def query_terms(self, query: str) -> QueryTerms:
        """The query's stemmed terms, their ids and its reference score, read in one statement and kept
        until the next write (keyword_query.py)."""
        try:
            return self._query_terms(self._reader(), query)
        except duckdb.Error as exc:
            raise store_error(f"read the terms of {query[:80]!r} from the keyword index", exc) from exc

    def _query_terms(self, cur: duckdb.DuckDBPyConnection, query: str) -> QueryTerms:
        if not query.strip():
            return NO_TERMS
        generation = self._writes
        known = self._terms_of.get(query, generation)
        if known is None:
            pending = self._state.pending
            with pending.lock:  # the df the table lacks, of the commit its statement reads
                unwritten = pending.committed_df
                known = self._words.query_terms(
                    cur, query, generation, unwritten, lambda terms: self._kept_rows(cur, terms, generation)
                ) or read_query_terms(cur, query, unwritten)
            self._terms_of.put(query, generation, known)
        return known

    def _kept_rows(
        self, cur: duckdb.DuckDBPyConnection, terms: list[str], generation: int
    ) -> dict[str, tuple[int | None, int]] | None:
        """Each term's (id, df) without the term lookup: the id from the resident snapshot, the df counted
        in the term's postings, which the query needs anyway (resident_terms.py); None when the snapshot
        cannot say, or a write is ending now (its removed chunks may not be masked yet: writing.py buries
        them after counting the generation, under the write lock, which it holds from the commit on). Called
        holding `pending.lock`."""
        ids = self._postings.term_ids(terms)
        if ids is None or not self._write_lock.acquire(blocking=False):
            return None
        try:  # no write is between its commit and the masking of its removed chunks
            if self._writes != generation:
                return None
        finally:
            self._write_lock.release()
        tids = sorted({tid for tid in ids.values() if tid is not None})
        postings = dict(zip(tids, self._term_postings(cur, tids), strict=True))
        dead = self._filter.dead  # every committed removal: no write is ending (above)
        return {
            term: (None, 0) if tid is None else (tid, live_count(postings[tid][0], dead))
            for term, tid in ids.items()
        }

    def query_reference(self, query: str) -> float:
        """The BM25 score of a chunk that holds each of the query's terms once at average length: the sum
        of their idfs, a term absent from the corpus counting at df 0. Dividing a hit's score by it gives
        a keyword score on a scale that means the same on any collection (1 = every term matched once;
        words the corpus lacks pull it down), which fusion and the relevance floor need (fusion.py).
        0 when the query has no terms."""
        return self.query_terms(query).reference

    def _read(self, what: str, sql: str) -> list[tuple[Any, ...]]:
        try:
            return self._reader().execute(sql).fetchall()
        except duckdb.Error as exc:
            raise store_error(what, exc) from exc

    def texts(self, paths: Sequence[str]) -> dict[ChunkKey, str]:
        """Every stored chunk text of these files (the semantic phase embeds what the keyword phase
        stored, so nothing is extracted twice)."""
        if not paths:
            return {}
        cur = self._reader()
        try:
            rows = cur.execute(
                "SELECT path, chunk_index, text FROM chunks WHERE path IN (SELECT unnest(?))", [list(paths)]
            ).fetchall()
        except duckdb.Error as exc:
            raise store_error("read chunk text from the keyword index", exc) from exc
        return {(path, int(index)): text or "" for path, index, text in rows}

    def chunk_counts(self) -> dict[str, int]:
        rows = self._read(
            "count the keyword index's chunks", "SELECT path, count(*) FROM chunks GROUP BY path"
        )
        return {path: int(n) for path, n in rows}

    def stale_ratio(self) -> float:
        """Chunks added or removed since the last refresh, over the chunks indexed now (0 when fresh)."""
        pending = self._state.pending
        self._reader()  # made before taking the lock: close() takes the cursor lock, then this one
        with pending.lock:  # removed ids still in memory count as well (pending_writes.py)
            changed, total, mark = self._read("read the keyword index's statistics", changed_sql())[0]
            dead = pending.committed_dead()
        changed = int(changed or 0) + int(dead.size) + int(np.count_nonzero(dead > (mark or 0)))
        return float(changed) / max(int(total or 0), 1)

    def document_frequencies(self) -> dict[str, int]:
        """Every term's df as queries see it: the table's plus the committed changes it does not hold yet
        (pending_writes.py). For checks and benchmarks; a query reads only its own terms'."""
        pending = self._state.pending
        self._reader()  # made before the lock, as in stale_ratio
        with pending.lock:
            rows = self._read("read the keyword index's terms", "SELECT term, tid, df FROM terms")
            return {term: int(df) + pending.committed_df(int(tid)) for term, tid, df in rows}

    def generation(self) -> int:
        """Write transactions ended so far: once it changes, a search may read something else
        (retrieval/keyword_memo.py keys the answers it reuses by it)."""
        return self._writes

    def stats(self) -> dict[str, float]:
        rows = self._read(
            "read the keyword index's statistics",
            "SELECT count(*), coalesce(sum(len), 0), (SELECT count(*) FROM postings) FROM chunks",
        )
        n, total_len, postings = rows[0]
        return {"chunks": int(n), "total_len": int(total_len), "postings": int(postings)}


def postings_sql(tids: Sequence[int]) -> str:
    """The postings of these terms, as one equality scan per term. `tid IN (...)` reads every row group
    between the smallest and the largest id (DuckDB prunes an IN list by its min and max only): a query's
    terms lie far apart in the term-sorted table, so three terms read 374k rows for 1k postings at 100k
    chunks, ~10 ms; `tid = x` prunes to the term's own row groups (~1.6 ms for the same reads)."""
    return " UNION ALL ".join(f"SELECT tid, chunk_id, w FROM postings WHERE tid = {int(tid)}" for tid in tids)
