"""A corpus of real text, built at run time from files every Linux (or macOS) machine has, for the
latency and build benches: issue 30 found that the Zipfian pseudo-words of bench/search_latency.py
flatter us (hybrid x0.78-0.92 of LanceDB's there, x1.17 p50 on real text).

Sources, in a shuffled but seeded order so any row count mixes them: the Python standard library's
sources (code, docstrings, comments), the man pages (troff markup stripped), /usr/share/doc's plain
texts and /usr/share/common-licenses. Each file is cut by the product's own chunker
(engine/indexing/chunk.py) and keeps its real path, so a scope is a real folder. Vectors are random unit
rows, as in the synthetic corpus (the vector arm's cost does not depend on what the vectors mean).
Queries are 2-4 consecutive content words of a random chunk (what a person types: "socket timeout
error"), their vector that chunk's plus noise. The one-file update rewrites a real file of a few KB
(one line changed, every chunk re-cut).

    from real_text import real_batches, real_queries, update_file
"""

from __future__ import annotations

import gzip
import re
import sys
import sysconfig
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from search_latency import DIM, unit_rows

from engine.indexing.chunk import chunk_text
from engine.retrieval.keyword.tokenize import STOPWORDS

BATCH = 50_000
MAX_FILE_BYTES = 400_000  # a few huge generated files (unicode tables) would be most of a small corpus
Span = tuple[str, int, int]  # a file's path and its chunks' [start, stop) in the batch
RealBatch = tuple[int, list[str], np.ndarray, list[Span]]

_TROFF_ESCAPE = re.compile(r"\\(f[BIRP]|f\(..|\(..|\*.|s[-+]?\d|[-&e|^])")
_WORD = re.compile(r"[A-Za-z][a-z]{2,}")


def source_files() -> list[Path]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found = [p for p in stdlib.rglob("*.py") if "site-packages" not in p.parts]
    for base, pattern in (("/usr/share/man", "man[1-8]/*.gz"), ("/usr/share/doc", "*/*")):
        found += [p for p in Path(base).glob(pattern) if p.is_file()]
    licenses = Path("/usr/share/common-licenses")
    found += [p for p in licenses.iterdir() if p.is_file()] if licenses.is_dir() else []
    return sorted(found)


def read_text(path: Path) -> str:
    """The file's text: man pages unzipped and their troff markup dropped; '' for binaries."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return ""
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    except (OSError, EOFError, gzip.BadGzipFile):
        return ""
    if b"\0" in raw[:4096]:
        return ""
    text = raw.decode("utf-8", "replace")
    if "/man/" in str(path):
        lines = (line for line in text.splitlines() if not line.startswith(('.\\"', "'\\\"")))
        text = "\n".join(re.sub(r"^\.[A-Za-z]{1,3}\s?", "", _TROFF_ESCAPE.sub("", line)) for line in lines)
    return text


def real_batches(rows: int, rng: np.random.Generator) -> Iterator[RealBatch]:
    """Up to `rows` chunks of real files in batches of about BATCH; fewer if the machine has less text."""
    files = source_files()
    order = rng.permutation(len(files))
    texts: list[str] = []
    spans: list[Span] = []
    done = 0
    for n in order:
        chunks = chunk_text(read_text(files[n]))[: rows - done - len(texts)]
        if not chunks:
            continue
        spans.append((str(files[n]), len(texts), len(texts) + len(chunks)))
        texts += chunks
        if len(texts) >= BATCH or done + len(texts) >= rows:
            yield len(texts), texts, unit_rows(len(texts), rng), spans
            done += len(texts)
            texts, spans = [], []
        if done >= rows:
            return
    if texts:
        yield len(texts), texts, unit_rows(len(texts), rng), spans
    print(f"  the machine's real text gave {done + len(texts):,} chunks (asked {rows:,})", file=sys.stderr)


def content_words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in STOPWORDS]


def real_queries(
    texts: list[str], vectors: np.ndarray, count: int, rng: np.random.Generator
) -> list[tuple[str, np.ndarray]]:
    """2-4 consecutive content words of a random sampled chunk; its vector plus noise."""
    queries: list[tuple[str, np.ndarray]] = []
    while len(queries) < count:
        i = int(rng.integers(0, len(texts)))
        words = content_words(texts[i])
        size = int(rng.integers(2, 5))
        if len(words) < size:
            continue
        start = int(rng.integers(0, len(words) - size + 1))
        noisy = vectors[i] + rng.standard_normal(DIM).astype(np.float32) * 0.02
        queries.append((" ".join(words[start : start + size]), noisy / np.linalg.norm(noisy)))
    return queries


def scope_of(spans: list[Span], rows: int) -> str:
    """The real folder whose chunks are closest to 0.1% of the rows (at least 10): the scoped query's."""
    per_folder: Counter[str] = Counter()
    for path, start, stop in spans:
        per_folder[str(Path(path).parent)] += stop - start
    wanted = max(10, rows // 1000)
    return min(sorted(per_folder), key=lambda folder: abs(per_folder[folder] - wanted))


def update_file(spans: list[Span]) -> tuple[str, list[str], list[str]]:
    """A real file of 2-8 KB of the corpus and its chunks before and after one line is rewritten."""
    for path, _start, _stop in spans:
        text = read_text(Path(path))
        if 2_000 <= len(text) <= 8_000 and text.count("\n") > 4:
            lines = text.splitlines()
            middle = len(lines) // 2
            lines[middle] = lines[middle] + " (edited: rewritten by the update bench)"
            return path, chunk_text(text), chunk_text("\n".join(lines))
    raise SystemExit("no real file of 2-8 KB in the corpus for the one-file update")
