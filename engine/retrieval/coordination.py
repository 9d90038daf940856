"""Coordination: a keyword hit earns the keyword arm's score in proportion to how much of the query it holds.

BM25 sums what each matched term is worth, so a chunk that holds one or two of a query's words many
times can outscore one that holds them all, and on the calibrated fusion's scale (fusion.py) it can
outrank what the dense arm finds. A paraphrase shares no word with its answer, so every keyword hit it
has is such a coincidence: "contract for the flat I live in" matched a quarterly report that mentions a
supplier "contract" and a "flat" fourth quarter, above the lease the dense arm ranked third; "monthly
overview from my bank" matched the rent receipts' bank details above the bank statements (issue 28,
bench/meaning_misses.py). A chunk holding every term of the query is what the keyword arm is for
(keyword and known-item queries, one-word topics) and keeps its score.

The rule is Lucene's classic coordination factor (TFIDFSimilarity's `coord(q, d)`: the share of the
query's terms a document holds, multiplied into its score), raised to a power COORDINATION (0 = off),
and applied only where the keyword arm is a coincidence (`coincidental`): its best hit holds part of
the query and the dense arm finds that hit unrelated (a cosine at most the floor's semantic threshold).
Applied to every query it cost SciFact train's keyword arm 0.6967 -> 0.6527 nDCG@10 at power 2 (claims'
abstracts hold part of the claim, and the dense arm corroborates them); conditioned, it can change 67 of
SciFact train's 809 queries (bench/coordination_study.py --touched). The power is chosen on the personal
calibration seeds: `python bench/search_meaning.py --calibrate-coordination --size full --seeds 0 1 2
--held-out 3 4` prints the sweep; with the name field coordinated too (below) it chose 3 over 2 (full
calibration meaning top-3 84.9 -> 85.3 %, top-1 62.2 -> 64.4 %; small unchanged), at a SciFact train hybrid
cost of 0.7339 -> 0.7330 nDCG@10 (bench/quality.py --floor). The floor reads the keyword evidence
before coordination: nothing shown is hidden.

The name field (names.py) has the same weakness: a path holding one word of a several-word query lifted
its file towards the top as a full name match lifts it ("transferring records between systems" put
vaccination-record.pdf, which the dense arm finds unrelated, above the data-migration note it ranks
first). `coordinated_names` multiplies a name score, itself the share of the query's idf mass the path
holds, by that share ** NAME_COORDINATION before the name lifts a file in the ranking (fusion.with_names);
a path naming the whole query, or a one-word query, keeps its score, and the floor reads the name
evidence before it. Its power was chosen with the name weight in force (hybrid.NAME_WEIGHT 0.25): 3,
over 0, raises the calibration seeds' full meaning top-1 61.8 -> 64.4 % (top-3 84.0 % at every power),
and on the held-out personal folders (seeds 3 4, the floor in force) full meaning top-1 59.3 -> 62.7 %
(top-3 81.3 % both), the other kinds unchanged. SciFact's paths are document ids, which no claim names.

The terms a keyword hit holds are counted where the keyword arm scored it: how many of the query's terms'
postings list the chunk (KeywordAnswer.held, postings_cache.held_terms), the index's own tokenization
of the chunk, in one numpy pass while the vector search runs. Finding them again in the hit's text with
the index's stemmer (terms.TermMatcher, the one the snippets use) gave the same share for all 19,874
hits of 400 real-text queries (bench/compare.py's corpus, 100k chunks), but cost 3-8 ms after the vector
arm for a query whose keyword arm was a coincidence, the tail of the hybrid's p95 (issue 30). That
reading of the text stays for hits given without counts (bench/coordination_study.py): the share the
best hit holds is then worked out `ahead`, while the vector search runs, and kept by (text, terms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.terms import TermMatcher, shared_matcher

# Written by `python bench/search_meaning.py --calibrate-coordination` (see the module docstring).
COORDINATION = 3.0
# The name field's power (`coordinated_names`), chosen on the personal calibration seeds of both sizes and
# written by `python bench/name_coordination_study.py --keep-in DIR --seeds 0 1 2 --held-out 3 4 --write`.
NAME_COORDINATION = 3.0
KEPT_SHARES = 256  # best hits' shares kept by (text, terms): a search asks one, the page's two calls the same


def share_held(text: str, terms: frozenset[str], matcher: TermMatcher) -> float:
    """The share of the query's distinct `terms` that `text` holds (1.0 when there are no terms)."""
    if not terms:
        return 1.0
    held = {term for _, _, term in matcher.matches(text, terms)}
    return len(held) / len(terms)


def coincidental(
    hits: Sequence[Hit],
    texts: Mapping[ChunkKey, str],
    terms: frozenset[str],
    dense: Sequence[Hit],
    related: float,
    matcher: TermMatcher,
    depth: int = 0,
    held: Mapping[ChunkKey, int] | None = None,
) -> bool:
    """Whether the keyword arm's best hit is a coincidence: it holds only part of the query's terms and
    the dense arm does not find it related: its cosine is at most `related` (the floor's semantic
    threshold). A hit the dense arm did not return has at most the arm's lowest cosine when the arm was
    cut off at `depth` (fusion.calibrated's rule), else none. `held`: how many terms each hit holds,
    where the keyword arm counted them (else its text is read)."""
    if len(terms) < 2 or not hits:
        return False
    best = hits[0]
    cosines = {hit.key: hit.score for hit in dense}
    absent = min(cosines.values()) if depth > 0 and len(dense) >= depth else 0.0
    if cosines.get(best.key, absent) > related:
        return False
    if held is not None and best.key in held:
        return held[best.key] < len(terms)
    return _kept_share(texts.get(best.key, ""), terms, matcher) < 1.0


def ahead(
    hits: Sequence[Hit],
    texts: Mapping[ChunkKey, str],
    terms: frozenset[str],
    held: Mapping[ChunkKey, int] | None = None,
) -> None:
    """Work out the share of the query the keyword arm's best hit holds now and keep it (hybrid search does
    this while the vector search runs): `coincidental`, after both arms, then finds it (issue 30: the work
    after the arms, ≤ 1.5 ms at 100k chunks). Nothing to do where the keyword arm counted it (`held`)."""
    if len(terms) >= 2 and hits and hits[0].key not in (held or {}):
        _kept_share(texts.get(hits[0].key, ""), terms, shared_matcher())


@lru_cache(maxsize=KEPT_SHARES)
def _kept_share(text: str, terms: frozenset[str], matcher: TermMatcher) -> float:
    """`share_held`, its words stemmed together first (one lookup for the non-ASCII ones)."""
    matcher.learn([text], terms)
    return share_held(text, terms, matcher)


def coordinated(
    hits: Sequence[Hit],
    texts: Mapping[ChunkKey, str],
    terms: frozenset[str],
    power: float = COORDINATION,
    matcher: TermMatcher | None = None,
    dense: Sequence[Hit] | None = None,
    related: float = 0.0,
    depth: int = 0,
    held: Mapping[ChunkKey, int] | None = None,
) -> list[Hit]:
    """The keyword hits with each score multiplied by `share_held ** power`, best first; unchanged for a
    power of 0, a query of one term (every hit holds the whole query), or, when the `dense` arm's hits
    are given, a query whose keyword arm is not `coincidental`. `held`: how many of the terms each hit
    holds, as the keyword arm counted them (KeywordAnswer.held); a hit it lacks has its text read."""
    if power <= 0 or len(terms) < 2 or not hits:
        return list(hits)
    matcher = matcher or shared_matcher()
    if dense is not None and not coincidental(hits, texts, terms, dense, related, matcher, depth, held):
        return list(hits)
    counted = held or {}
    unread = [texts.get(hit.key, "") for hit in hits if hit.key not in counted]
    if unread:
        matcher.learn(unread, terms)  # one statement for all the hits
    scaled = [
        Hit(
            hit.path,
            hit.chunk_index,
            hit.score * _share(hit.key, texts, terms, matcher, counted) ** power,
        )
        for hit in hits
    ]
    return sorted(scaled, key=lambda hit: hit.score, reverse=True)


def _share(
    key: ChunkKey,
    texts: Mapping[ChunkKey, str],
    terms: frozenset[str],
    matcher: TermMatcher,
    held: Mapping[ChunkKey, int],
) -> float:
    """The share of `terms` the hit holds: counted by the keyword arm where it was, else read in its text."""
    if key in held:
        return held[key] / len(terms)
    return share_held(texts.get(key, ""), terms, matcher)


def coordinated_names(names: Mapping[str, float], terms: frozenset[str], power: float) -> dict[str, float]:
    """Name scores (names.py: the share of the query's idf mass a path holds) multiplied by that share
    `** power`: a path naming part of a query of several terms lifts its file less; one that names the
    whole query keeps its score."""
    if power <= 0 or len(terms) < 2:
        return dict(names)
    lifted = {score: score * score**power for score in set(names.values())}  # few distinct scores
    return {path: lifted[score] for path, score in names.items()}
