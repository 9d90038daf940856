"""What the agent costs before the model says a word: the time from `chat_with_assistant` to the first
model request (pre-RAG hybrid search + memory + scope listing + prompt assembly), and the prompt size of a
typical turn, over a 100k-chunk index.

The index is built directly with the retrieval stores (DuckDB BM25 + LanceDB with its ANN index) from
generated text and random unit vectors; the query vector comes from the `HashingEmbedder`, so no model
time is included, and the chat model is a zero-latency `FunctionModel` that stamps the first request.
Prints figures; asserts nothing. Usage: `python bench/agent_overhead.py [--chunks 100000] [--turns 40]`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.agent import MIGRATIONS, Agent, FunctionModel
from engine.agent.prompt import estimate_tokens
from engine.config import ReasoningSettings, Settings
from engine.db import Database
from engine.embed import HashingEmbedder
from engine.events import EventBus
from engine.indexing.results import SenseRow
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.results import SearchResult
from engine.retrieval.vectors import VectorIndex
from engine.roots import Roots

CHUNKS_PER_FILE = 10
FILES_PER_FOLDER = 100
WORDS_PER_CHUNK = 120
DIM = 384


def vocabulary(size: int = 20_000, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(size)]


def chunk_texts(rng: random.Random, words: list[str], weights: list[float], n: int) -> list[str]:
    return [" ".join(rng.choices(words, weights, k=WORDS_PER_CHUNK)) + "." for _ in range(n)]


def build_index(
    data: Path, chunks: int, words: list[str], weights: list[float]
) -> tuple[KeywordIndex, VectorIndex]:
    keywords = KeywordIndex(data / "keywords.duckdb")
    vectors = VectorIndex(data / "vectors", DIM)
    if vectors.count() >= chunks:
        return keywords, vectors
    rng, np_rng = random.Random(1), np.random.default_rng(1)
    files = chunks // CHUNKS_PER_FILE
    started = time.perf_counter()
    for batch_start in range(0, files, 500):
        batch = []
        for f in range(batch_start, min(files, batch_start + 500)):
            path = str(data / "corpus" / f"folder{f // FILES_PER_FOLDER:03}" / f"file{f:05}.txt")
            vecs = np_rng.standard_normal((CHUNKS_PER_FILE, DIM)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            batch.append((path, chunk_texts(rng, words, weights, CHUNKS_PER_FILE), vecs))
        keywords.upsert_many([(p, t) for p, t, _v in batch])
        vectors.upsert_many(batch)
    keywords.refresh_weights()
    vectors.optimize()
    print(
        f"built {files * CHUNKS_PER_FILE} chunks in {time.perf_counter() - started:.0f} s "
        f"(ANN index: {vectors.has_ann()})"
    )
    return keywords, vectors


def scope_folder(data: Path) -> Path:
    """One real folder of the corpus on disk, so the prompt's [D]/[F] listing has something to list."""
    folder = data / "corpus" / "folder000"
    for i in range(FILES_PER_FOLDER):
        target = folder / (f"sub{i // 25}" if i % 2 else "") / f"file{i:05}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    return folder


class StoreHost:
    """An AgentHost over the bare retrieval stores."""

    def __init__(self, search: HybridSearch, root: Path):
        self._search = search
        self.roots = Roots(lambda: [str(root)])  # the port's one bounds rule (engine/roots.py)

    def search(self, query: str, scope: str | None, limit: int) -> list[SearchResult]:
        return self._search.search(query, scope=scope, limit=limit)

    def extracted_text(self, path: str) -> str:
        return Path(path).read_text(encoding="utf-8", errors="replace")

    def senses(self, path: str, recursive: bool, limit: int) -> list[SenseRow]:
        return []

    def propose_plan(self, summary: str, operations: list[dict[str, Any]]) -> dict[str, Any]:
        raise NotImplementedError("the benchmark never proposes plans")


def measure(
    agent: Agent, model: FunctionModel, stamps: list[float], questions: list[str], scope: str | None
) -> tuple[list[float], dict[str, int]]:
    samples, sizes = [], {}
    for question in questions:
        stamps.clear()
        started = time.perf_counter()
        agent.chat_with_assistant([{"role": "user", "content": question}], scope=scope)
        samples.append((stamps[0] - started) * 1000)
    request = model.requests[-1]
    sizes["messages"] = sum(estimate_tokens(str(m.get("content") or "")) + 4 for m in request.messages)
    sizes["tools"] = estimate_tokens(json.dumps(request.tools))
    return samples, sizes


def report(label: str, samples: list[float], sizes: dict[str, int]) -> None:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    print(
        f"{label:<28} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   prompt ≈ {sizes['messages']} tokens "
        f"+ tool schema ≈ {sizes['tools']} tokens"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--data", type=Path, help="reuse this folder's index (built on first use)")
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="sensetree-agent-bench-"))
    data.mkdir(parents=True, exist_ok=True)
    words = vocabulary()
    weights = [1 / (rank + 1) for rank in range(len(words))]  # Zipf-like word frequencies
    keywords, vectors = build_index(data, args.chunks, words, weights)
    search = HybridSearch(keywords, vectors, HashingEmbedder(DIM), None, exists=lambda _p: True)
    folder = scope_folder(data)
    stamps: list[float] = []
    model = FunctionModel(lambda _m, _t: stamps.append(time.perf_counter()) or "ok")
    db = Database(data / "agent.db")
    db.migrate(MIGRATIONS)
    settings = Settings(reasoning=ReasoningSettings(enabled=True, model="zero-latency"))
    agent = Agent(StoreHost(search, data / "corpus"), db, lambda: settings, EventBus(), lambda _rs: model)
    for i in range(10):
        agent.memory.remember(f"durable note number {i} about the person's filing habits")
    rng = random.Random(3)
    questions = [
        " ".join(rng.choices(words[50:3000], k=rng.randint(3, 8))) + "?" for _ in range(args.turns + 5)
    ]
    measure(agent, model, stamps, questions[:5], None)  # warm-up: caches, lazy imports
    print(
        f"index: {vectors.count()} chunks, {len(words)}-word vocabulary, {os.cpu_count()} CPUs; "
        f"{args.turns} turns per row; query vector by HashingEmbedder, zero-latency model"
    )
    report("whole index, no scope", *measure(agent, model, stamps, questions[5:], None))
    report("scoped to one folder", *measure(agent, model, stamps, questions[5:], str(folder)))
    for label, scope in (("  of which search, no scope", None), ("  of which search, scoped", str(folder))):
        samples = []
        for question in questions[5:]:
            started = time.perf_counter()
            search.search(question, scope=scope, limit=6)
            samples.append((time.perf_counter() - started) * 1000)
        ordered = sorted(samples)
        print(
            f"{label:<28} p50 {statistics.median(ordered):7.1f} ms   "
            f"p95 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]:7.1f} ms"
        )
    agent.close()
    keywords.close()
    vectors.close()


if __name__ == "__main__":
    main()
