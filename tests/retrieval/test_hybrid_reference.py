"""Hybrid search answers what the plain pipeline answers, key for key, score for score and mark for mark:
the arms' hits, calibrated fusion written the obvious way, the relevance floor, the best chunk of each
file, and highlights on every word whose stem (by DuckDB, word by word) is a query term. The search's
fast paths (one pass per arm, candidate words by their beginning, the shared stem memo) change nothing."""

from __future__ import annotations

import random
import re

import duckdb
import pytest

from engine.embed import HashingEmbedder
from engine.resources import fts_extension_path
from engine.retrieval import terms as terms_module
from engine.retrieval.hybrid import KEYWORD_WEIGHT, HybridSearch
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.relevance import Floor
from engine.retrieval.snippet import ELLIPSIS, make_snippet
from engine.retrieval.vectors import VectorIndex

STEMS = ["relat", "condit", "valen", "hop", "budget", "formal", "happ", "control", "motor", "review"]
ENDINGS = ["", "s", "ed", "ing", "ational", "ation", "ness", "y", "ies", "er", "ive", "ize", "ment"]
FILLER = ["the", "of", "and", "team", "quarter", "spring", "travel", "costs", "Alpha", "beta", "X", "Zeta"]


def generated(rng: random.Random) -> dict[str, list[str]]:
    words = [s + e for s in STEMS for e in ENDINGS] + FILLER
    return {
        f"/corpus/folder{f % 4}/file{f:03d}.txt": [
            " ".join(
                rng.choice(words).capitalize() if rng.random() < 0.2 else rng.choice(words) for _ in range(30)
            )
            for _ in range(rng.randint(1, 4))
        ]
        for f in range(60)
    }


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("reference")
    texts = generated(random.Random(17))
    embedder = HashingEmbedder(64)
    keywords = KeywordIndex(tmp / "k.duckdb")
    vectors = VectorIndex(tmp / "vectors", embedder.dim)
    keywords.upsert_many(texts.items())
    vectors.upsert_many((path, chunks, embedder.embed(chunks)) for path, chunks in texts.items())
    stemmer = duckdb.connect()
    stemmer.execute(f"LOAD '{fts_extension_path()}'")
    yield keywords, vectors, embedder, texts, stemmer
    stemmer.close()
    keywords.close()


def plain_arms(keyword, reference, dense):
    lexical, semantic = {}, {}
    for key, score in keyword:
        lexical.setdefault(key, min(score / reference, 1.0) if reference > 0 else 0.0)
    for key, score in dense:
        semantic.setdefault(key, min(max(score, 0.0), 1.0))
    return lexical, semantic


def plain_shown(fused, lexical, semantic, floor):
    """The relevance floor written the obvious way: hits with evidence in an arm, and those close to the
    best of them (no path word of this corpus is a query term, so names add nothing)."""
    evidenced = [
        (k, s) for k, s in fused if lexical.get(k, 0) >= floor.lexical or semantic.get(k, 0) >= floor.semantic
    ]
    if not evidenced:
        return []
    return [(k, s) for k, s in fused if (k, s) in evidenced or s >= evidenced[0][1] - floor.margin]


def plain_fused(keyword, reference, dense, weights, depth):
    lexical, semantic = plain_arms(keyword, reference, dense)
    absent = [min(arm.values()) if len(arm) >= depth > 0 else 0.0 for arm in (lexical, semantic)]
    keys = list(dict.fromkeys([*lexical, *semantic]))
    fused = {
        k: sum(w * arm.get(k, low) for w, arm, low in zip(weights, (lexical, semantic), absent, strict=True))
        / sum(weights)
        for k in keys
    }
    return sorted(fused.items(), key=lambda item: item[1], reverse=True)


def every_term_word(stemmer, text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Each word of `text` whose stem is a query term, each stemmed by DuckDB (no candidates, no memo)."""
    spans = []
    for m in terms_module._WORDS.finditer(text.replace(ELLIPSIS, " ")):  # the cut marks are not words
        folded = stemmer.execute("SELECT lower(strip_accents(?))", [m.group()]).fetchone()[0]
        stem = stemmer.execute(f"SELECT stem(?, '{tokenize.STEMMER}')", [folded]).fetchone()[0]
        if folded not in tokenize.STOPWORDS and stem in terms:
            spans.append((m.start(), m.end()))
    return spans


QUERIES = ["relational budgets", "hoping controls", "happiness of the formalization", "motors reviewed",
           "valency conditioned travel", "zeta X", "nothing matches zzqx"]  # fmt: skip


@pytest.mark.parametrize("query", QUERIES)
def test_a_hybrid_search_equals_the_plain_pipeline(corpus, query):
    keywords, vectors, embedder, texts, stemmer = corpus
    floor = Floor(lexical=0.5, semantic=0.3, margin=0.1)
    # the plain pipeline below has neither of the two re-rankings that test_coordination.py and
    # test_phrase.py pin: both are off here
    search = HybridSearch(
        keywords, vectors, embedder, exists=lambda _p: True, floor=floor, coordination=0.0, phrase_weight=0.0
    )
    got = search.search(query, limit=8, candidates=20)

    vector = embedder.embed([query])[0]
    answer = keywords.answer(query, 20)
    dense = vectors.search(vector, 20)
    fused = plain_fused(
        [(h.key, h.score) for h in answer.hits],
        answer.terms.reference,
        [(h.key, h.score) for h in dense],
        (KEYWORD_WEIGHT, 1.0 - KEYWORD_WEIGHT),
        20,
    )
    best: dict[str, tuple[int, float]] = {}
    lexical, semantic = plain_arms(
        [(h.key, h.score) for h in answer.hits], answer.terms.reference, [(h.key, h.score) for h in dense]
    )
    for (path, index), score in plain_shown(fused, lexical, semantic, floor):
        if path not in best and len(best) < 8:
            best[path] = (index, score)
    assert [(r.path, r.chunk_index, r.score) for r in got] == [
        (path, index, round(min(max(score, 0.0), 1.0), 6)) for path, (index, score) in best.items()
    ]
    for result in got:
        text = texts[result.path][result.chunk_index]
        assert result.snippet == make_snippet(text, query, terms=answer.terms.terms).text
        assert result.highlights == every_term_word(stemmer, result.snippet, answer.terms.terms)
        assert all(re.fullmatch(r"\S+", result.snippet[s:e]) for s, e in result.highlights)


@pytest.mark.parametrize("query", QUERIES)
def test_a_scoped_search_is_the_unscoped_search_filtered_by_path(corpus, query):
    """With more candidates than chunks (no arm is cut off) and no floor (whose margin is relative to the
    best result shown), scoping removes the results outside the folder and changes nothing else: same
    keys, same order, same scores, same snippets."""
    keywords, vectors, embedder, texts, _ = corpus
    # coordination is off: it is decided by the keyword arm's best hit inside the scope searched
    # (coordination.py), so it may rank a folder's files differently from the whole tree, by design
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0, coordination=0.0)
    everything = sum(len(chunks) for chunks in texts.values()) + 1
    unscoped = search.search(query, limit=len(texts), candidates=everything)
    scoped = search.search(query, scope="/corpus/folder1", limit=len(texts), candidates=everything)
    assert scoped == [r for r in unscoped if r.path.startswith("/corpus/folder1/")]
