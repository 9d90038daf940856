"""The keyword arm's answer, computed once for the two calls a page search makes.

The search page asks `keyword_search` (shown at once) and `semantic_search` (shown when the query's
embedding lands) for the same words and scope at the same moment, and both run the keyword arm: the same
BM25 statement and the same point reads, twice per search (issue 30). `KeywordAnswers` keeps the last few
answers for a few seconds and lets a second caller that asks while the first is still computing wait for
it instead of computing it again. An answer is keyed by the query, the scope, the depth asked for and the
index's generation (KeywordIndex.generation: it changes when a write transaction ends or the index is
replaced), read before the answer is computed, so an answer never outlives a write: a search after a write
always asks the index again.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass

from engine.retrieval.keyword.query import KeywordAnswer

KEPT = 8  # answers: a page search needs one; a few more cover a person going back and forth
KEPT_S = 5.0  # how long an answer is reused: the page's two calls start together


@dataclass
class _Entry:
    answer: Future[KeywordAnswer]
    at: float


class KeywordAnswers:
    """`answer(key, compute)`: `compute()`'s answer, or the same key's answer from the last KEPT_S seconds,
    or the one another thread is computing for it now. A failed computation is not kept: its waiters get
    its error, and the next caller computes again."""

    def __init__(self, kept: int = KEPT, kept_s: float = KEPT_S, clock: Callable[[], float] = time.monotonic):
        self._kept, self._kept_s, self._clock = kept, kept_s, clock
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()

    def answer(self, key: Hashable, compute: Callable[[], KeywordAnswer]) -> KeywordAnswer:
        with self._lock:
            now = self._clock()
            entry = self._entries.get(key)
            if entry is not None and (not entry.answer.done() or now - entry.at <= self._kept_s):
                mine = None
            else:
                mine = _Entry(Future(), now)
                self._entries[key] = mine
                self._entries.move_to_end(key)
                while len(self._entries) > self._kept:
                    self._entries.popitem(last=False)
        if mine is None:
            return entry.answer.result()  # type: ignore[union-attr]  # computed, or being computed now
        try:
            result = compute()
        except BaseException as exc:
            with self._lock:
                if self._entries.get(key) is mine:
                    del self._entries[key]
            mine.answer.set_exception(exc)
            raise
        mine.answer.set_result(result)
        return result
