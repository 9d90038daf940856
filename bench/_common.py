"""Shared pieces of the retrieval benchmarks: BEIR loading, chunking, cached embeddings, metrics, timing.

The benchmarks print figures; they never assert. Embeddings of a corpus are cached under
`bench/.cache/` keyed by model name and a hash of the exact texts embedded, so a rerun that changes
only the retrieval side costs no model time.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# the words of the generated files of the soak and memory benches (ten everyday topics)
TOPIC_WORDS = [
    "invoice",
    "contract",
    "harbour",
    "orchard",
    "meeting",
    "budget",
    "travel",
    "recipe",
    "garden",
    "letter",
]
CACHE_DIR = REPO / "bench" / ".cache"
DEFAULT_SCIFACT = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact"


@dataclass(frozen=True)
class Beir:
    corpus: dict[str, tuple[str, str]]  # doc id -> (title, text)
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]  # query id -> {doc id: relevance}


def load_beir(data: Path, split: str) -> Beir:
    corpus: dict[str, tuple[str, str]] = {}
    for line in (data / "corpus.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        corpus[str(row["_id"])] = (row.get("title") or "", row.get("text") or "")
    qrels: dict[str, dict[str, int]] = {}
    lines = (data / "qrels" / f"{split}.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        qid, did, score = line.split("\t")
        if int(score) > 0:
            qrels.setdefault(qid, {})[did] = int(score)
    queries = {}
    for line in (data / "queries.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if str(row["_id"]) in qrels:
            queries[str(row["_id"])] = row["text"]
    return Beir(corpus, queries, qrels)


def _fallback_chunk(text: str, max_chars: int, overlap: int) -> list[str]:
    """Paragraph → sentence → hard window, used until engine.indexing.chunk exists."""
    pieces: list[str] = []
    for para in re.split(r"\n\s*\n", text):
        if len(para) <= max_chars:
            pieces.append(para)
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", para):
            pieces.extend(sentence[i : i + max_chars] for i in range(0, len(sentence), max_chars - overlap))
    chunks: list[str] = []
    current = ""
    for piece in filter(None, (p.strip() for p in pieces)):
        if current and len(current) + 1 + len(piece) > max_chars:
            chunks.append(current)
            tail = current[-overlap:] if overlap else ""
            current = (tail[tail.find(" ") + 1 :] + " " + piece).strip() if tail else piece
        else:
            current = f"{current} {piece}".strip()
    if current:
        chunks.append(current)
    return chunks or [text]


def chunker(prefer_engine: bool = True) -> tuple[str, Callable[[str, int, int], list[str]]]:
    if not prefer_engine:
        return "bench fallback", _fallback_chunk
    try:
        from engine.indexing.chunk import chunk_text  # type: ignore[import-not-found]

        return "engine.indexing.chunk", chunk_text
    except ImportError:
        return "bench fallback", _fallback_chunk


def embed_cached(embedder, texts: list[str], label: str) -> np.ndarray:
    """Embed `texts` once per (model, exact texts); later runs load the .npy from bench/.cache/."""
    digest = hashlib.sha256(embedder.name.encode())
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\x00")
    path = (
        CACHE_DIR / f"{label}-{re.sub(r'[^A-Za-z0-9_.+-]', '_', embedder.name)}-{digest.hexdigest()[:16]}.npy"
    )
    if path.exists():
        return np.load(path)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    out = np.zeros((len(texts), 0), dtype=np.float32)
    parts = []
    step = 512
    for start in range(0, len(texts), step):
        parts.append(embedder.embed(texts[start : start + step]))
        done = min(start + step, len(texts))
        rate = done / (time.perf_counter() - started)
        print(f"  embedded {done}/{len(texts)} ({rate:.1f}/s)", file=sys.stderr, flush=True)
    out = np.concatenate(parts) if parts else out
    np.save(path, out)
    return out


def ndcg_at(ranked: list[str], relevant: dict[str, int], k: int = 10) -> float:
    dcg = sum(relevant.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], relevant: dict[str, int], k: int = 100) -> float:
    return len(set(ranked[:k]) & set(relevant)) / len(relevant) if relevant else 0.0


def evaluate(runs: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> tuple[float, float]:
    ndcg = statistics.fmean(ndcg_at(runs.get(q, []), rel) for q, rel in qrels.items())
    recall = statistics.fmean(recall_at(runs.get(q, []), rel) for q, rel in qrels.items())
    return ndcg, recall


def percentiles(samples_ms: Iterable[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return p50, p95


def time_calls(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return percentiles(samples)


def peak_rss_mb() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage / 1024 if sys.platform != "darwin" else usage / 1024 / 1024


def memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of the process, 0 when it has gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0, 0
    values = {
        line.split(":")[0]: int(line.split()[1]) for line in lines if line.startswith(("VmRSS", "VmHWM"))
    }
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


def start_serve(env: dict[str, str]) -> subprocess.Popen[str]:
    """`app.py serve` on the data folder `env` names (SENSETREE_HOME); the first line it prints is
    `SenseTree UI: <url with the token>`."""
    return subprocess.Popen(
        [sys.executable, str(REPO / "app.py"), "serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def write_constant(module: Path, name: str, value: object) -> None:
    """Rewrite the line `NAME = ...` of `module` (a calibration writes its choice); one must exist."""
    source, count = re.subn(
        rf"\n{name} = [^\n]*\n", f"\n{name} = {value}\n", module.read_text(encoding="utf-8")
    )
    if count != 1:
        raise SystemExit(f"could not find {name} in {module}")
    module.write_text(source, encoding="utf-8")
    print(f"wrote {name} = {value} into {module.name}")
