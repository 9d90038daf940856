"""Hybrid search: composes the keyword and vector stores, fusion, the optional reranker and snippets.

BM25 top-N and vector top-N inside the scope → calibrated fusion (fusion.py: both arms on an absolute
[0, 1] scale, weighted mean) → the name field folded in (names.py, fusion.with_names: a file whose name
or folders hold the query's terms moves up, and such files neither arm found join; a path naming part
of a several-word query moves up in proportion: coordination.coordinated_names) → the relevance floor
(relevance.py: a hit is shown when one arm has evidence for it, so nonsense gets no results) → rerank
of the head when a reranker is configured → best chunk per file, one row per content (copies.py: identical
copies are one row that names the others) → results whose file still exists. The score means the same
on every path and every collection: without a reranker it is the fused score (1.0 = every query term
matched, a cosine of 1); with one, the reranker's probability. `fusion="rrf"` and `"relative"` remain
for the benchmarks that compare them.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

import numpy as np

from engine.errors import ModelError, StoreError
from engine.retrieval import coordination
from engine.retrieval.coordination import COORDINATION, NAME_COORDINATION, coordinated, coordinated_names
from engine.retrieval.copies import CopiesOf, no_copies, one_per_content, with_copies
from engine.retrieval.folder_names import FolderMeanings, strengths
from engine.retrieval.fusion import (
    ChunkKey,
    Hit,
    arm_scales,
    fuse,
    name_order,
    single_arm,
    with_names,
    with_phrases,
)
from engine.retrieval.keyword import phrase
from engine.retrieval.keyword.healing import KeywordStore
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.query import KeywordAnswer
from engine.retrieval.keyword_memo import KeywordAnswers
from engine.retrieval.names import name_only
from engine.retrieval.query_embedding import CLOSE_WAIT_S, QueryEmbedder
from engine.retrieval.relevance import RELEVANCE, Evidence, Evidenced, Floor, floor_for, shown
from engine.retrieval.result_page import result_page, snippets_ahead
from engine.retrieval.results import SearchResult
from engine.retrieval.terms import shared_matcher

if TYPE_CHECKING:  # LanceDB, httpx and the settings load with the parts that use them, not with this module:
    # a keyword answer before the engine opens needs none of them (engine/keyword_peek.py)
    from engine.embed import Embedder
    from engine.retrieval.lance_calls import PendingSearch
    from engine.retrieval.rerank import Reranker
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

FUSIONS = ("calibrated", "rrf", "relative")
FUSION = "calibrated"
# The keyword arm's share of the calibrated fusion's weighted mean (the dense arm has the rest), chosen on
# two kinds of data together: among the weights whose SciFact train nDCG@10 (bench/fusion_study.py) is
# within 0.005 of the best (0.25-0.40: 0.7359-0.7396), the one whose personal-folder paraphrase queries
# (bench/search_meaning.py, calibration seeds 0-2) put the right file in the top 3 most often
# (0.40: 65.8 %, 0.30: 73.7 %, 0.25: 80.7 %). SciFact's best alone (0.40) let partial keyword matches
# on other files push paraphrase answers down (issue 28). Held-out seeds 3-4: 78.9 % -> 82.9 %.
KEYWORD_WEIGHT = 0.25
# Whether a chunk an arm did not return takes that arm's lowest score when the arm was cut off at the
# candidate depth (True), or 0 (False): fusion.calibrated's `depth`; chosen the same way.
ABSENT_AT_CUTOFF = True
# How far a full name match moves a hit towards the top score (fusion.with_names): written by
# `python bench/search_meaning.py --calibrate` beside the floor (relevance.py).
NAME_WEIGHT = 0.25
# How far a folder whose name means the query (folder_names.py, strength 1) moves its files towards the
# top score; written by the same calibration.
FOLDER_WEIGHT = 0.75
# How far a chunk holding the query's words as typed (keyword/phrase.py, strength 1) moves towards the top
# score: chosen and written by `python bench/calibrate_phrase.py --write` (personal, real text, SciFact).
PHRASE_WEIGHT = 0.5


__all__ = ["FUSION", "FUSIONS", "HybridSearch", "SearchResult", "fuse"]


class HybridSearch:
    """`search(query, scope, limit)` over a KeywordIndex and a VectorIndex; see the module docstring."""

    def __init__(
        self,
        keywords: KeywordIndex | KeywordStore,
        vectors: VectorIndex,
        embedder: Embedder,
        reranker: Reranker | None = None,
        *,
        weights: Sequence[float] = (KEYWORD_WEIGHT, 1.0 - KEYWORD_WEIGHT),
        rerank_top_n: int = 30,
        exists: Callable[[str], bool] = os.path.exists,
        fusion: str = FUSION,
        floor: Floor | float | None = None,
        name_weight: float = NAME_WEIGHT,
        folder_weight: float = FOLDER_WEIGHT,
        phrase_weight: float = PHRASE_WEIGHT,
        coordination: float = COORDINATION,
        name_coordination: float = NAME_COORDINATION,
        pending: Callable[[list[str]], set[str]] | None = None,
        copies: CopiesOf = no_copies,
    ):
        self.keywords = keywords
        self.vectors = vectors
        self.embedder = embedder
        self.reranker = reranker
        self.weights = tuple(weights)
        self.rerank_top_n = rerank_top_n
        self.exists = exists
        if fusion not in FUSIONS:
            raise ValueError(f"unknown fusion {fusion!r}; one of {', '.join(FUSIONS)}")
        self.fusion = fusion
        # the evidence a hit needs to be shown (relevance.py); by default the floor calibrated for the
        # embedder's model on calibrated fusion's scale, and none for another model or fusion; 0 is none
        default = floor_for(getattr(embedder, "name", "")) if fusion == "calibrated" else None
        self.floor: Floor | None = default if floor is None else (floor or None)  # type: ignore[assignment]
        self.name_weight = name_weight
        self.folder_weight = folder_weight
        self.phrase_weight = phrase_weight
        self.coordination = coordination  # coordination.py: partial keyword matches rank lower
        self.name_coordination = name_coordination  # coordination.py: and partial name matches
        # folder names compared by meaning only with the model the folder threshold is a cosine of
        self._folders = FolderMeanings(embedder.embed) if default is not None else None
        # which result paths have keyword rows but no vectors yet (the catalog knows; engine/assembly.py)
        self.pending: Callable[[list[str]], set[str]] = pending or (lambda paths: set())
        self.copies = copies  # identical copies of result paths (the catalog; copies.py collapses them)
        self._queries = QueryEmbedder()
        self._answers = KeywordAnswers()  # the keyword arm's answer, once for a page's two calls
        self._warming: threading.Thread | None = None

    def embed_query(self, query: str) -> np.ndarray:
        """The query's vector: on one torch thread, cached for repeats (query_embedding.py)."""
        return self._queries.embed(self.embedder, query)

    def warm(self) -> None:
        """Load the embedding model in the background, so the first search does not wait for it."""
        self._queries.warm(self.embedder)
        self._warming = shared_matcher().warm()  # and the stemmer the snippets use

    def close(self, timeout: float = CLOSE_WAIT_S) -> None:
        """Wait (bounded) for the query thread and the warm-up: a quit during the model's load must not
        leave a thread inside torch or DuckDB while the interpreter shuts down (issue 31, N8)."""
        self._queries.close(timeout)
        if self._warming is not None:
            self._warming.join(timeout)

    def search(
        self,
        query: str,
        scope: str | None = None,
        limit: int = 10,
        candidates: int = 50,
        vector: np.ndarray | None = None,
    ) -> list[SearchResult]:
        """The `limit` best files for `query` (one result per file, its best chunk) whose fused score
        reaches the relevance floor. `vector` skips embedding the query (benchmarks pass a fixed one to
        time the stores alone)."""
        if not query.strip() or limit <= 0:
            return []
        fused, texts, answer, evidence, keyword_only = self._fuse(query, scope, candidates, vector, limit)
        ranked = self._rerank(query, shown(fused, evidence, self.floor), texts)
        terms = answer.terms.terms if answer is not None else None
        return self._results(query, ranked, limit, texts, terms, keyword_only)

    def fused(
        self, query: str, scope: str | None, candidates: int, vector: np.ndarray | None = None
    ) -> list[tuple[ChunkKey, float]]:
        """Both arms fused (by `self.fusion`) with the name field, scores in [0, 1], before the floor."""
        return self._fuse(query, scope, candidates, vector)[0]

    def evidenced(
        self, query: str, scope: str | None, candidates: int, vector: np.ndarray | None = None
    ) -> tuple[list[tuple[ChunkKey, float]], Evidenced[ChunkKey]]:
        """`fused`, and each hit's score per arm (the relevance floor's evidence; benchmarks calibrate
        it from these)."""
        fused, _, _, evidence, _ = self._fuse(query, scope, candidates, vector)
        return fused, evidence

    def _fuse(
        self, query: str, scope: str | None, candidates: int, vector: np.ndarray | None, shown: int = 0
    ) -> tuple[
        list[tuple[ChunkKey, float]], dict[ChunkKey, str], KeywordAnswer | None, Evidenced[ChunkKey], bool
    ]:
        """The arms run at the same time: the vector search is started on LanceDB's own threads and the
        keyword arm runs on the caller's thread meanwhile (DuckDB releases the GIL), then the vector hits
        are collected (lance_calls.py says why not a thread of its own); a query that must be embedded
        first has its keyword arm run while the query thread embeds it, then the vector search. The
        arms return their hits' text, so the snippets need no further read, and the keyword arm the query's
        stemmed terms (None when it could not answer), so the snippets need not stem the query again.
        (Reading the keyword hits' keys in one statement and the text of its ten best in a second was
        slower on two loaded cores than reading all fifty texts in one: docs/search-latency.md.) What needs
        the keyword arm alone (the name field, the folder evidence, the keyword hits' scale, words as typed
        and best hit's share of the query) is made before the vector hits are collected, while the vector
        search runs (issue 30 item 3). The last value says whether the answer is the keyword arm's alone
        (the vectors failed, or hold nothing)."""
        embedding = self._queries.embed_later(self.embedder, query) if vector is None else None
        if embedding is not None and not embedding.done():  # the keyword arm runs while the query embeds
            answer = self._keyword_arm(query, candidates, scope, shown)
            dense = _DenseArm(lambda: self.vectors.start_search(embedding.result(), candidates, scope))
        else:  # the keyword arm runs while LanceDB searches
            dense = _DenseArm(
                lambda: self.vectors.start_search(
                    np.asarray(embedding.result() if embedding is not None else vector), candidates, scope
                )
            )
            answer = self._keyword_arm(query, candidates, scope, shown)
        terms = answer.terms.terms if answer is not None else frozenset()
        if answer is not None:  # while the vector search runs; kept for below
            coordination.ahead(answer.hits, answer.texts, terms, answer.held)
            if self.phrase_weight:
                phrase.ahead(query, answer.texts)
        names = self._names(answer, scope)  # and what needs no vector hit, made now too
        lifts = coordinated_names(names, terms, self.name_coordination)
        # the first names with_names can take: `candidates` beside at most the two arms' files
        best_names = name_order(lifts, 3 * candidates) if self.name_weight > 0 else []
        threshold = (self.floor or RELEVANCE).folder
        folders = self._folder_evidence(embedding, vector, scope, threshold)
        keyword_hits = answer.hits if answer is not None else []
        reference = answer.terms.reference if answer is not None and keyword_hits else 0.0
        lexical = arm_scales([(h.key, h.score) for h in keyword_hits], reference, [])[0]
        dense_hits, texts = dense.result(answer is None)
        texts = {**(answer.texts if answer is not None else {}), **texts}
        keyword_only = bool(keyword_hits) and not dense_hits  # the vectors are empty (rebuilding) or failed
        related = (self.floor or RELEVANCE).semantic  # coordination.py: the floor's semantic threshold
        held = answer.held if answer is not None else None
        ranked = coordinated(
            keyword_hits, texts, terms, self.coordination, None, dense_hits, related, candidates, held
        )
        if keyword_only:
            fused = single_arm(ranked)
        else:
            depth = candidates if ABSENT_AT_CUTOFF else None
            fused = fuse(self.fusion, ranked, dense_hits, self.weights, reference, depth)
        fused = with_names(fused, lifts, self.name_weight, candidates, best_names)
        fused = with_names(fused, strengths(folders, threshold), self.folder_weight, candidates)
        # the words as typed (keyword/phrase.py); a weight of 0 turns the rule off, evidence included
        typed = {}
        if self.phrase_weight:
            typed = phrase.strengths(query, texts, lambda key, text: name_only(text, key[0]))
        fused = with_phrases(fused, typed, self.phrase_weight)
        semantic = arm_scales([], reference, [(h.key, h.score) for h in dense_hits])[1]

        def evidence(key: ChunkKey) -> Evidence:
            dense = 0.0 if name_only(texts.get(key, ""), key[0]) else semantic.get(key, 0.0)
            keyword = max(lexical.get(key, 0.0), typed.get(key, 0.0))
            return Evidence(keyword, dense, names.get(key[0], 0.0), folders.get(key[0], 0.0))

        return fused, texts, answer, evidence, keyword_only

    def folder_cosines(self, query_vector: np.ndarray, scope: str | None = None) -> dict[str, float]:
        """folder -> the cosine of the query with its name (folder_names.py), for every folder that
        tells files apart inside `scope`; none with an embedder the folder threshold was not made for."""
        if self._folders is None:
            return {}
        try:
            return self._folders.cosines(query_vector, self.keywords.folders(scope))
        except (StoreError, ModelError) as exc:
            log.warning("folder names unavailable: %s", exc)
            return {}

    def _folder_evidence(
        self, embedding: Future[np.ndarray] | None, vector: np.ndarray | None, scope: str | None, above: float
    ) -> dict[str, float]:
        """path -> the best cosine above `above` of the query with a folder over it; none when the
        query could not be embedded."""
        if self._folders is None or (self.folder_weight <= 0 and self.floor is None):
            return {}
        try:
            query_vector = np.asarray(embedding.result() if embedding is not None else vector)
        except ModelError:
            return {}
        cosines = {f: c for f, c in self.folder_cosines(query_vector, scope).items() if c > above}
        if not cosines:
            return {}
        try:
            return self.keywords.beneath(cosines, scope)
        except StoreError as exc:
            log.warning("folder names unavailable: %s", exc)
            return {}

    def _names(self, answer: KeywordAnswer | None, scope: str | None) -> dict[str, float]:
        """Each file's name score for the query's terms (names.py); none when the keyword index cannot
        answer, or when name weight and floor both ignore names."""
        if answer is None or not answer.terms.terms:
            return {}
        try:
            return self.keywords.name_scores(answer.terms.terms, scope)
        except StoreError as exc:
            log.warning("name field unavailable: %s", exc)
            return {}

    def _keyword_arm(
        self, query: str, candidates: int, scope: str | None, shown: int
    ) -> KeywordAnswer | None:
        """`_keyword_answer`, or None when the keyword index cannot answer (or heal): that must not fail
        the search, which answers from the vectors alone."""
        try:
            return self._keyword_answer(query, candidates, scope, shown)
        except StoreError as exc:
            log.warning("keyword arm unavailable, answering from vectors alone: %s", exc)
            return None

    def _keyword_answer(self, query: str, candidates: int, scope: str | None, shown: int) -> KeywordAnswer:
        """The keyword arm: its hits with their text, and the snippets of its `shown` best files made now,
        while the vector search runs, rather than after it (result_page.snippets_ahead; they are kept, so
        the results step finds them). The page's two calls for one query share one answer
        (keyword_memo.py)."""
        key = (query, scope, candidates, self.keywords.generation())
        answer = self._answers.answer(key, lambda: self.keywords.answer(query, candidates, scope))
        if shown > 0 and answer.hits:
            snippets_ahead(answer.hits, answer.texts, shown, answer.terms.terms)
        return answer

    def search_keyword(
        self, query: str, scope: str | None = None, limit: int = 10, candidates: int = 50
    ) -> list[SearchResult]:
        """The BM25 arm alone (benchmarks, and a fallback while the model loads)."""
        answer = self._keyword_answer(query, candidates, scope, limit)
        return self._results(query, single_arm(answer.hits), limit, answer.texts, answer.terms.terms)

    def search_dense(
        self,
        query: str,
        scope: str | None = None,
        limit: int = 10,
        candidates: int = 50,
        vector: np.ndarray | None = None,
    ) -> list[SearchResult]:
        """The vector arm alone."""
        query_vector = self.embed_query(query) if vector is None else vector
        hits, texts = self.vectors.search_with_text(query_vector, candidates, scope)
        return self._results(query, single_arm(hits), limit, texts)

    def _rerank(
        self, query: str, fused: list[tuple[ChunkKey, float]], texts: dict[ChunkKey, str]
    ) -> list[tuple[ChunkKey, float]]:
        if self.reranker is None or not fused:
            return fused
        head, tail = fused[: self.rerank_top_n], fused[self.rerank_top_n :]
        texts.update(self.vectors.texts(key for key, _ in head if key not in texts))
        try:
            probabilities = self.reranker.score(query, [texts.get(key, "") for key, _ in head])
        except ModelError as exc:  # a rerank endpoint that is down: the fused order stands (issue 31, N6)
            log.warning("reranker unavailable, keeping the fused order: %s", exc)
            return fused
        scored = zip((key for key, _ in head), probabilities, strict=False)
        reranked = sorted(scored, key=lambda kv: kv[1], reverse=True)
        floor = min(probabilities) if probabilities else 0.0
        return reranked + [(key, min(score, floor)) for key, score in tail]

    def _results(
        self,
        query: str,
        ranked: list[tuple[ChunkKey, float]],
        limit: int,
        texts: dict[ChunkKey, str] | None = None,
        terms: frozenset[str] | None = None,
        keyword_only: bool = False,
    ) -> list[SearchResult]:
        """Best chunk per existing file, one row per content (copies.py), with a snippet, for the shown page
        only (result_page.py)."""
        best, copies = one_per_content(ranked, limit, self.exists, self.copies)
        pending = self.pending(list(best)) if best else set()
        page = result_page(query, best, texts or {}, self.vectors.texts, pending, terms, keyword_only)
        return with_copies(page, copies)


class _DenseArm:
    """The vector arm, started now and collected later, that fails alone (issue 31, N12 and N6): while the
    vector store is set aside and rebuilt, or cannot answer, or the embedding endpoint cannot embed the
    query, search answers from the keyword arm alone (its own single-arm scale, as `search_keyword`).
    Only when the keyword arm failed too is the vector arm's error raised: nothing is whole to answer from."""

    def __init__(self, start: Callable[[], PendingSearch]):
        self._pending: PendingSearch | None = None
        self._error: StoreError | ModelError | None = None
        try:
            self._pending = start()
        except (StoreError, ModelError) as exc:
            self._error = exc

    def result(self, alone: bool) -> tuple[list[Hit], dict[ChunkKey, str]]:
        try:
            if self._pending is not None:
                return self._pending.result()
        except StoreError as exc:
            self._error = exc
        if alone and self._error is not None:
            raise self._error
        log.warning("vector arm unavailable, answering from keywords alone: %s", self._error)
        return [], {}
