"""A generated folder tree with one of every Gardener finding planted, and the exact findings expected.

Topic folders (Finance, Recipes, Travel) hold distinct texts on their topic, so their centroids mean
something; the planted copies live in `Archive`, which has too few files for a centroid of its own.
`expected(root)` is the set of `(kind, first evidence path)` the report must hold — nothing else."""

from __future__ import annotations

import os
import random
from pathlib import Path

TOPICS = {
    "Finance": "invoice payment amount tax bank account balance transfer receipt budget euro salary "
    "pension loan interest mortgage insurance premium refund expense accountant",
    "Recipes": "flour sugar butter eggs oven bake minutes stir pan salt pepper garlic onion tomato "
    "olive oil simmer dough knead chocolate vanilla",
    "Travel": "flight hotel passport train station booking luggage beach museum city tour visa airport "
    "check-in itinerary ferry hostel map guide sightseeing",
}
OLD = 1_500_000_000.0  # 2017: older than any stale threshold
FILLER = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
    "quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basil cedar dune ember fern "
    "grove heath iris jade kelp lotus maple nectar opal pearl quartz reed sage thistle umber vale willow"
).split()


def topic_text(topic: str, seed: int, words: int = 120) -> str:
    rng = random.Random(f"{topic}-{seed}")
    vocab = TOPICS[topic].split()
    body = " ".join(rng.choice(vocab) for _ in range(words))
    return f"{topic} note {seed}. {body}.\n"


def edited(text: str, seed: int) -> str:
    """`text` with one word swapped: a small edit."""
    words = text.split(" ")
    words[len(words) // 2 + seed] = "changed"
    return " ".join(words)


def write(root: Path, rel: str, text: str | bytes, mtime: float | None = None) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def plant(root: Path) -> None:
    for topic in TOPICS:
        for i in range(4):
            write(root, f"{topic}/{topic.lower()}-{i}.txt", topic_text(topic, i), OLD + i * 1000)
    invoice = topic_text("Finance", 7)
    write(root, "Finance/invoice-acme.txt", invoice, OLD + 10_000)
    write(root, "Archive/invoice-acme-backup.txt", invoice, OLD + 5_000)  # exact duplicate (older)
    pancakes = topic_text("Recipes", 8)
    write(root, "Recipes/pancakes.txt", pancakes, OLD + 20_000)
    write(
        root, "Archive/pancake-draft.txt", edited(pancakes, 1), OLD + 30_000
    )  # near-duplicate (a later copy)
    trip = topic_text("Travel", 9)
    write(root, "Travel/itinerary.txt", trip, OLD + 40_000)
    write(root, "Travel/itinerary (1).txt", edited(trip, 2), OLD + 50_000)
    write(root, "Travel/itinerary-final-v2.txt", edited(trip, 3), OLD + 60_000)  # the newest version
    write(root, "Recipes/lisbon-hotels.txt", topic_text("Travel", 11), OLD)  # misplaced
    write(root, "Finance/scan_0042.txt", topic_text("Finance", 12), OLD)  # unhelpful name
    write(root, "Old/disk-image.bin", bytes(range(256)) * 400, OLD)  # stale and large (102 kB)
    rng = random.Random(3)
    for i in range(41):  # clutter: more than 40 loose files
        body = " ".join(rng.choice(FILLER) + str(rng.randrange(1000)) for _ in range(30))
        write(root, f"Downloads/memo-{i:02d}.txt", f"Memo {i}. {body}\n", OLD)
    (root / "Travel" / "Empty").mkdir()
    (root / "Projects" / "unused").mkdir(parents=True)
    write(root, "Deep/a/b/c/d/e/f/g/leaf.txt", "A leaf note about nothing in particular.\n", OLD)


def expected(root: Path) -> set[tuple[str, str]]:
    r = str(root)
    return {
        ("duplicate", f"{r}/Finance/invoice-acme.txt"),
        ("near_duplicate", f"{r}/Recipes/pancakes.txt"),
        ("version", f"{r}/Travel/itinerary-final-v2.txt"),
        ("misplaced", f"{r}/Recipes/lisbon-hotels.txt"),
        ("unhelpful_name", f"{r}/Finance/scan_0042.txt"),
        ("stale_large", f"{r}/Old/disk-image.bin"),
        ("clutter", f"{r}/Downloads"),
        ("empty_folder", f"{r}/Travel/Empty"),
        ("empty_folder", f"{r}/Projects/unused"),
        ("depth", f"{r}/Deep/a/b/c/d/e/f"),
    }
