"""Flat memory under `sensetree serve`: a progress poll while a folder indexes, then many short requests.

Issue 30: the HTTP server starts a thread per connection, and every thread's SQLite connection used to
be kept, so a `serve` that indexed 2,000 documents while the page polled progress ended at 5.6 GB RSS
(2 file descriptors and 0.5-1.9 MB per `indexing_stats` call). This bench starts the real `app.py serve`
on a throw-away data folder, adds a generated folder through the API and polls `indexing_stats` as the
page does (`--polls`; 7,200 is two hours at one poll a second, the page's 4 s period while busy plus
its refreshes on events), each call on a fresh connection (the worst case: one server thread per call).
Then `--requests` short requests of the kinds the page sends (progress, search, roots, listing, a
file's details). The server's RSS and open file descriptors are sampled from /proc throughout.

Between the two, the folder is analysed once by the Gardener (`analyze_directory`, what the page's Tidy
view asks and what the background pass does 45 s after start): a one-off that fills the Gardener's memo
of findings and the vector store's bounded caches, printed with its peak and what it keeps. Before
issue 30's second look it was not separated, and a background pass that happened to land among the
requests read as growth: over 2,000 near-identical generated files it peaked at 1.08 GB, holding every
similar pair as objects (engine/gardener/duplicates.py now walks them as an array and skips the pairs a
group already joins: 435 MB).

Target: flat, i.e. from the end of indexing to the end of the poll, and from the end of the Gardener's
analysis to the end of the run, RSS and FDs move by at most ±10 %.
The index is built with the hashing embedder (what is measured is the server's memory, not the
model's; `--model` gives a real one).

    python bench/serve_memory.py [--files 2000] [--polls 7200] [--requests 10000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, memory_kb, start_serve  # noqa: E402

FLAT = 0.10  # the most RSS and FDs may move from the end of indexing to the end of the run
MAINTENANCE_S = 2.0  # after indexing settles, the index's maintenance runs (a fraction of a second here)
TOPICS = ["invoice", "contract", "harbour", "orchard", "meeting", "budget", "travel", "recipe", "garden"]


class Client:
    """POST /api/<command> with the token, each call on a new connection (a new server thread)."""

    def __init__(self, url: str):
        parsed = urlparse(url)
        self.port = parsed.port or 80
        self.token = parse_qs(parsed.query)["token"][0]

    def call(self, command: str, **kwargs: object) -> object:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        headers = {"Content-Type": "application/json", "X-SenseTree-Token": self.token}
        try:
            conn.request("POST", f"/api/{command}", body=json.dumps(kwargs).encode(), headers=headers)
            envelope = json.loads(conn.getresponse().read())
        finally:
            conn.close()
        if not envelope.get("ok"):
            raise RuntimeError(f"{command} failed: {envelope.get('error')}")
        return envelope["data"]


@dataclass(frozen=True)
class Sample:
    calls: int
    rss_mb: float
    fds: int
    peak_mb: float = 0.0  # the process's RSS high-water mark so far (VmHWM)


def sample(pid: int, calls: int) -> Sample:
    rss_kb, peak_kb = memory_kb(pid)
    return Sample(calls, rss_kb / 1024, len(os.listdir(f"/proc/{pid}/fd")), peak_kb / 1024)


def write_folder(root: Path, files: int) -> None:
    root.mkdir(parents=True)
    for n in range(files):
        words = " ".join(TOPICS[(n * 7 + k) % len(TOPICS)] for k in range(60))
        (root / f"doc{n:05d}.txt").write_text(f"{TOPICS[n % len(TOPICS)]} note {n}\n\n{words}\n", "utf-8")


def settled(stats: object) -> bool:
    """Both phases done (keyword and semantic), nothing queued, scanning or in hand."""
    if not isinstance(stats, dict) or not stats.get("files") or stats.get("queued") or stats.get("current"):
        return False
    phases = [stats.get(name) or {} for name in ("keyword", "semantic")]
    return not stats.get("scanning") and all(
        int(p.get("done") or 0) >= int(p.get("total") or 0) for p in phases
    )


def poll(client: Client, pid: int, polls: int, every: int) -> tuple[list[Sample], int | None]:
    """`polls` progress calls; returns the samples and the call from which flatness is judged: the first
    one MAINTENANCE_S after indexing settled, once the index's maintenance (compaction and the path index,
    engine/indexing/worker.py, run as the last batch lands: its new files are opened then) is done."""
    samples, settled_at, baseline = [sample(pid, 0)], None, None
    for n in range(1, polls + 1):
        stats = client.call("indexing_stats")
        if settled_at is None and settled(stats):
            settled_at = time.monotonic()
        if baseline is None and settled_at is not None and time.monotonic() - settled_at >= MAINTENANCE_S:
            baseline = n
            samples.append(sample(pid, n))
        if n % every == 0:
            samples.append(sample(pid, n))
    return samples, baseline


def requests(client: Client, pid: int, count: int, every: int, root: Path) -> list[Sample]:
    """Short requests of the kinds the page sends, in turn."""
    one_file = str(root / "doc00001.txt")
    kinds: list[tuple[str, dict[str, object]]] = [
        ("indexing_stats", {}),
        ("semantic_search", {"query": "harbour invoice", "limit": 10}),
        ("get_roots", {}),
        ("semantic_search", {"query": "orchard budget meeting", "scope": str(root), "limit": 10}),
        ("path_details", {"path": one_file}),
        ("list_directory", {"path": str(root)}),
    ]
    samples = [sample(pid, 0)]
    for n in range(1, count + 1):
        command, kwargs = kinds[n % len(kinds)]
        client.call(command, **kwargs)
        if n % every == 0:
            samples.append(sample(pid, n))
    return samples


def report(name: str, samples: list[Sample], start: Sample) -> bool:
    end = samples[-1]
    rss, fds = end.rss_mb / start.rss_mb - 1, end.fds / max(start.fds, 1) - 1
    flat = abs(rss) <= FLAT and abs(fds) <= FLAT
    peak = max(s.rss_mb for s in samples)
    trail = " ".join(f"{s.rss_mb:.0f}" for s in samples[:: max(1, len(samples) // 10)])
    print(
        f"{name}: RSS {start.rss_mb:.0f} -> {end.rss_mb:.0f} MB ({rss:+.1%}), peak {peak:.0f} MB; "
        f"FDs {start.fds} -> {end.fds} ({fds:+.1%}); {'flat' if flat else 'NOT FLAT'} (±{FLAT:.0%})"
    )
    print(f"  RSS along the way (MB): {trail}")
    return flat


def run(args: argparse.Namespace, tmp: Path) -> None:
    home, root = tmp / "home", tmp / "Docs"
    home.mkdir()
    write_folder(root, args.files)
    (home / "settings.json").write_text(json.dumps({"embedding": {"model": args.model}}), "utf-8")
    env = {**os.environ, "SENSETREE_HOME": str(home), "PYTHONPATH": str(REPO)}
    server = start_serve(env)
    try:
        assert server.stdout is not None
        client = Client(server.stdout.readline().strip().split(" ", 2)[-1])
        client.call("app_version")
        began = time.monotonic()
        client.call("add_indexed_folder", path=str(root))
        polled, baseline_at = poll(client, server.pid, args.polls, max(1, args.polls // 20))
        poll_s = time.monotonic() - began
        gardener = [sample(server.pid, 0)]
        began = time.monotonic()
        client.call("analyze_directory", path=str(root))
        gardener_s = time.monotonic() - began
        gardener.append(sample(server.pid, 1))
        began = time.monotonic()
        asked = requests(client, server.pid, args.requests, max(1, args.requests // 20), root)
        ask_s = time.monotonic() - began
    finally:
        server.terminate()
        server.wait(60)
    print(
        f"{args.files} files indexed while polling: settled and maintained at poll {baseline_at} "
        f"of {args.polls} "
        f"({poll_s:.0f} s for the polls, {args.requests} requests in {ask_s:.0f} s)"
    )
    after_indexing = next((s for s in polled if s.calls == baseline_at), polled[-1])
    ok = report("progress poll, end of indexing -> last poll", polled, after_indexing)
    before, after = gardener
    print(
        f"the Gardener's first analysis ({gardener_s:.1f} s, once, not judged): RSS {before.rss_mb:.0f} -> "
        f"{after.rss_mb:.0f} MB kept ({after.rss_mb / before.rss_mb - 1:+.1%}), peak while it ran "
        f"{after.peak_mb:.0f} MB (the process's high-water mark)"
    )
    ok = report(f"{args.requests} short requests", asked, asked[0]) and ok
    ok = report("the whole run after the analysis", gardener[1:] + asked[1:], gardener[1]) and ok
    print(f"SUMMARY serve memory: {'flat' if ok else 'NOT FLAT'} (target ±{FLAT:.0%} RSS and FDs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--polls", type=int, default=7200)
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--model", default="hashing-384", help="embedding model (hashing-384: no model)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sensetree-serve-memory-") as tmp:
        run(args, Path(tmp))


if __name__ == "__main__":
    main()
