"""Indexing throughput and incremental costs, on real files built from the SciFact abstracts.

Prints: end-to-end chunks/s of the real pipeline (extract → sense → chunk → embed → store) with the
real model, the raw model-forward chunks/s on the very same chunk texts, and their ratio (target ≥ 0.9);
for keyword-first indexing, the time until every file is keyword-searchable against the time to extract
the same files alone (target ratio ≤ 1.3), the semantic phase's time against the raw forward on its
chunks (target ≥ 0.9), and the time from adding the folder to the first search hit (target ≤ 5 s);
the time to re-scan an unchanged 10k-file folder (target ≤ 3 s; that part uses the hashing embedder,
since a re-scan of unchanged files embeds nothing); and the embeddings done for a folder rename (target 0).
`--busy` keeps one CPU-bound process running through the end-to-end and raw timings (the same load for
both), so the ratio says what load costs the pipeline beyond the model itself.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.embed import HashingEmbedder, TransformerEmbedder
from engine.engine import Engine

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact"


def load_docs(data: Path, n: int) -> list[dict]:
    docs = []
    with open(data / "corpus.jsonl", encoding="utf-8") as handle:
        for line in handle:
            docs.append(json.loads(line))
            if len(docs) >= n:
                break
    return docs


def write_mixed_folder(folder: Path, docs: list[dict]) -> None:
    """Plain text, Markdown, HTML and DOCX files, grouped in a few sub-folders, like a real Documents."""
    import docx

    for i, doc in enumerate(docs):
        sub = folder / f"topic-{i % 7}"
        sub.mkdir(parents=True, exist_ok=True)
        title, text = doc["title"], doc["text"]
        kind = i % 4
        if kind == 0:
            (sub / f"{doc['_id']}.txt").write_text(f"{title}\n\n{text}", encoding="utf-8")
        elif kind == 1:
            (sub / f"{doc['_id']}.md").write_text(f"# {title}\n\n{text}", encoding="utf-8")
        elif kind == 2:
            (sub / f"{doc['_id']}.html").write_text(
                f"<html><head><title>{title}</title></head><body><p>{text}</p></body></html>",
                encoding="utf-8",
            )
        else:
            document = docx.Document()
            document.add_heading(title, 1)
            document.add_paragraph(text)
            document.save(str(sub / f"{doc['_id']}.docx"))


def end_to_end(folder: Path, home: Path) -> tuple[float, float, int, list[str], Engine]:
    """(whole drain, keyword phase alone, chunks, embedded texts, engine). The keyword phase ends when
    the semantic phase is first asked for work: nothing is queued then, every file is searchable."""
    engine = Engine(home, embedder=TransformerEmbedder())
    engine.parts.embedder.load()  # model load is a one-time start-up cost, not throughput
    engine.parts.embedder.embed(["warm up"])
    engine.add_indexed_folder(str(folder))
    semantic = engine.parts.index.worker.semantic
    original, marks = semantic.run_batch, []

    def run_batch(should_stop=lambda: False):
        if not marks:
            marks.append(time.perf_counter())
            stats = engine.indexing_stats()
            assert stats.keyword.done == stats.keyword.total, stats.keyword
        return original(should_stop)

    semantic.run_batch = run_batch
    start = time.perf_counter()
    engine.parts.index.drain()
    elapsed = time.perf_counter() - start
    chunks = engine.indexing_stats().chunks
    texts = stored_embedding_inputs(engine)
    return elapsed, marks[0] - start, chunks, texts, engine


def extract_alone(folder: Path) -> float:
    """Extraction of every file, nothing else: the floor the keyword phase is measured against."""
    from engine.indexing.extract import extract

    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    start = time.perf_counter()
    for path in paths:
        extract(str(path), max_chars=200_000)
    return time.perf_counter() - start


def first_hit(folder: Path, home: Path, query: str, bound_s: float = 60.0) -> float:
    """Seconds from adding the folder (background engine, model already loaded) to a search hit."""
    engine = Engine(home, embedder=TransformerEmbedder(), background=True)
    try:
        engine.parts.embedder.load()
        engine.parts.embedder.embed(["warm up"])
        start = time.perf_counter()
        engine.add_indexed_folder(str(folder))
        while time.perf_counter() - start < bound_s:
            if engine.semantic_search(query, limit=1):
                return time.perf_counter() - start
            time.sleep(0.05)
        return float("inf")
    finally:
        engine.running.close()


def stored_embedding_inputs(engine: Engine) -> list[str]:
    """The exact texts the pipeline embedded (chunk 0 as stored, later chunks with the name · sense
    prefix)."""
    from engine.indexing.prepared import chunk_inputs

    texts = []
    from engine.assembly import index_options

    opts = index_options(engine.running.live)
    from engine.indexing.extract import extract

    for record in engine.parts.index.catalog.under(engine.get_roots()[0]):
        if record.status != "done":
            continue
        extracted = extract(record.path, max_chars=opts.max_chars)
        texts.extend(
            chunk_inputs(record.name, record.sense or "", record.doc_type or "", extracted.text, opts)[1]
        )
    return texts


def raw_forward(texts: list[str]) -> float:
    model = TransformerEmbedder()
    model.embed(["warm up"])
    start = time.perf_counter()
    for i in range(0, len(texts), 256):
        model.embed(texts[i : i + 256])
    return time.perf_counter() - start


def rescan_time(n_files: int, work: Path) -> tuple[float, float]:
    folder = work / "rescan"
    for i in range(n_files):
        sub = folder / f"d{i % 50}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"f{i}.txt").write_text(f"note {i} about topic {i % 97}", encoding="utf-8")
    engine = Engine(work / "home-rescan", embedder=HashingEmbedder())
    try:
        engine.add_indexed_folder(str(folder))
        engine.parts.index.drain()
        times = []
        for _ in range(3):
            start = time.perf_counter()
            engine.parts.index.worker.request_scan(str(folder))
            engine.parts.index.drain()
            times.append(time.perf_counter() - start)
        before = engine.parts.embedder.embedded
        os.rename(folder / "d1", folder / "renamed-d1")
        engine.parts.indexer.moved(str(folder / "d1"), str(folder / "renamed-d1"))
        engine.parts.index.worker.request_scan(str(folder))
        engine.parts.index.drain()
        return statistics.median(times), float(engine.parts.embedder.embedded - before)
    finally:
        engine.running.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--files", type=int, default=1000, help="mixed real files for the throughput run")
    parser.add_argument("--rescan-files", type=int, default=10_000)
    parser.add_argument(
        "--busy", action="store_true", help="one `while True: pass` process runs through both timings"
    )
    args = parser.parse_args()
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        measure(args)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        folder = work / "Documents"
        docs = load_docs(args.data, args.files)
        write_mixed_folder(folder, docs)
        extracting = extract_alone(folder)
        elapsed, keyword_s, chunks, texts, engine = end_to_end(folder, work / "home")
        engine.running.close()
        raw = raw_forward(texts)
        e2e_rate, raw_rate = chunks / elapsed, len(texts) / raw
        semantic_s = elapsed - keyword_s
        hit_s = first_hit(folder, work / "home-first-hit", docs[0]["title"])
        print(
            f"keyword-searchable: {keyword_s:.1f} s; extraction alone: {extracting:.1f} s; "
            f"ratio {keyword_s / extracting:.2f}  (target <= 1.3)"
        )
        print(
            f"semantic phase: {semantic_s:.1f} s; raw forward on its chunks: {raw:.1f} s; "
            f"ratio raw / phase {raw / semantic_s:.2f}  (target >= 0.9)"
        )
        print(f"first search hit after adding the folder: {hit_s:.2f} s  (target <= 5 s)")
        print(f"files: {args.files}  chunks: {chunks}  (embedded inputs re-derived: {len(texts)})")
        print(f"end-to-end: {e2e_rate:.1f} chunks/s  ({elapsed:.1f} s)")
        print(f"raw model forward: {raw_rate:.1f} chunks/s  ({raw:.1f} s)")
        load = "under one busy loop" if args.busy else "quiet"
        print(f"ratio end-to-end / raw: {e2e_rate / raw_rate:.2f}  (target >= 0.9, {load})")
        rescan, rename_embeddings = rescan_time(args.rescan_files, work)
        print(f"re-scan of {args.rescan_files} unchanged files: median {rescan:.2f} s  (target <= 3 s)")
        print(f"embeddings done for a folder rename: {rename_embeddings:.0f}  (target 0)")
        print(
            f"SUMMARY index_throughput ({load}): ratio={e2e_rate / raw_rate:.2f} e2e={e2e_rate:.1f}/s "
            f"raw={raw_rate:.1f}/s "
            f"rescan_10k={rescan:.2f}s rename_embeddings={rename_embeddings:.0f} "
            f"keyword_vs_extract={keyword_s / extracting:.2f} semantic_vs_raw={raw / semantic_s:.2f} "
            f"first_hit={hit_s:.2f}s"
        )


if __name__ == "__main__":
    main()
