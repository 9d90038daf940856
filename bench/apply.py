"""Action plans at scale: a 1,000-operation plan (moves into new folders) over a 10k-file indexed tree.

Builds the tree, indexes it through the real Engine with the hashing embedder (fast, and its counter
is what matters: a move must cost zero embeddings), then proposes, applies and undoes the plan and
prints the time of each phase and the embeddings done. Phase boundaries come from the executor's
fault hook, which sees every step of every phase.

    python bench/apply.py [--files 10000] [--ops 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.txn import MIGRATIONS, FaultPoint, TxnService

WORDS = [
    "invoice",
    "contract",
    "report",
    "receipt",
    "letter",
    "budget",
    "holiday",
    "recipe",
    "travel",
    "meeting",
    "notes",
    "project",
]


def _word(i: int) -> str:
    """A letters-only token unique to file i (digits are not searchable words)."""
    return "ref" + "".join(chr(ord("a") + int(d)) for d in f"{i:05d}")


def build_tree(root: Path, files: int) -> list[Path]:
    made = []
    for i in range(files):
        folder = root / f"inbox{i // 100:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"file{i:05d}.txt"
        path.write_text(
            f"{WORDS[i % len(WORDS)]} number {i} for client {i % 97}, reference {_word(i)}.\n" * 3
        )
        made.append(path)
    return made


def plan_for(root: Path, files: list[Path], ops: int) -> list[dict]:
    folders = max(1, ops // 20)
    plan = [
        {"kind": "mkdir", "new_path": f"{root}/Sorted/group{g:02d}", "reason": "new folder"}
        for g in range(folders)
    ]
    step = max(1, len(files) // (ops - folders))
    for n, path in enumerate(files[::step][: ops - folders]):
        plan.append(
            {
                "kind": "move",
                "old_path": str(path),
                "new_path": f"{root}/Sorted/group{n % folders:02d}/{path.name}",
                "reason": "sort",
            }
        )
    return plan


class PhaseClock:
    """Records when each phase of a transaction first appears at the fault hook."""

    def __init__(self) -> None:
        self.first: dict[str, float] = {}

    def __call__(self, point: FaultPoint) -> None:
        self.first.setdefault(point.phase, time.perf_counter())


def timed_run(label: str, run, clock: PhaseClock, embedder: HashingEmbedder) -> None:
    clock.first.clear()
    embedded, start = embedder.embedded, time.perf_counter()
    result = run()
    end = time.perf_counter()
    disk, index = clock.first.get("disk", end), clock.first.get("index", end)
    print(
        f"{label}: {end - start:.2f} s total = checks {disk - start:.2f} s + disk {index - disk:.2f} s "
        f"+ index & commit {end - index:.2f} s; operations {result.applied}; "
        f"embeddings {embedder.embedded - embedded}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--ops", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        home, root = Path(scratch) / "home", Path(scratch) / "Docs"
        files = build_tree(root, args.files)
        embedder = HashingEmbedder()
        engine = Engine(home, embedder=embedder)
        engine.parts.db.migrate(MIGRATIONS)
        started = time.perf_counter()
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        print(
            f"indexed {args.files} files in {time.perf_counter() - started:.1f} s "
            f"({engine.parts.embedder.embedded} chunks embedded)"
        )
        clock = PhaseClock()
        service = TxnService(
            engine.parts.db, home, engine.running.roots, engine.parts.indexer, None, fault=clock
        )
        ops = plan_for(root, files, args.ops)
        started = time.perf_counter()
        plan = service.propose_plan("Sort the inbox", ops)
        print(
            f"propose (validate {len(ops)} operations on the virtual tree + fingerprints): "
            f"{time.perf_counter() - started:.2f} s"
        )
        timed_run("apply", lambda: service.apply_action_plan(plan["transaction_id"]), clock, embedder)
        moved = ops[-1]["new_path"]
        reference = Path(moved).read_text().split("reference ")[1].split(".")[0]
        hits = [h.path for h in engine.semantic_search(reference, limit=5)]
        print(f"search finds a moved file at its new path: {moved in hits}")
        timed_run("undo", lambda: service.undo_transaction(plan["transaction_id"]), clock, embedder)
        before_drain = embedder.embedded
        engine.parts.index.drain()
        print(
            f"embeddings done by the indexer after apply + undo (watcher/queue catch-up): "
            f"{embedder.embedded - before_drain}"
        )
        engine.running.close()


if __name__ == "__main__":
    main()
