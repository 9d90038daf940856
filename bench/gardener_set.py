"""The labelled near-duplicate set for bench/gardener.py, generated from SciFact abstracts.

Each of `bases` documents is written once as itself and three times as a near-duplicate a person
really accumulates: a copy with small edits (about 2 % of the words deleted or changed), a "re-saved
PDF" (the same text reflowed at 70 columns with words hyphenated across lines, ligatures, a page
header and a footer with a date, as text extraction gives it back) and a "(1)" copy (the download
saved twice, with a short line appended). `distractors` further abstracts are written as themselves.
The labels: every pair of files derived from one base is a near-duplicate; every other pair is not.
Deterministic for a given seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Labelled:
    files: dict[str, int]  # path → the base it derives from (distractors: their own id, negative)
    positives: set[tuple[str, str]]  # sorted path pairs that are near-duplicates


def small_edits(text: str, rng: random.Random, rate: float = 0.02) -> str:
    words = text.split()
    out = []
    for word in words:
        roll = rng.random()
        if roll < rate / 2:
            continue  # deleted
        out.append(word.upper() if roll < rate else word)  # changed
    return " ".join(out)


def resaved_pdf(text: str, rng: random.Random) -> str:
    lines, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > 70:
            if len(word) > 8 and rng.random() < 0.5:
                cut = len(word) // 2
                lines.append(f"{line} {word[:cut]}-".strip())
                line = word[cut:]
                continue
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    body = "\n".join(lines).replace("fi", "\ufb01").replace("fl", "\ufb02")
    return f"Page 1 of 1\n{body}\n\nPrinted 2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"


def download_copy(text: str, rng: random.Random) -> str:
    return f"{text}\n\nDownloaded from the journal site on 2024-05-{rng.randint(10, 28)}."


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:50] or "untitled"


def documents(corpus: dict[str, tuple[str, str]], count: int, seed: int) -> Iterator[tuple[str, str]]:
    ids = sorted(corpus)
    random.Random(seed).shuffle(ids)
    for doc_id in ids[:count]:
        title, text = corpus[doc_id]
        yield title, f"{title}\n\n{text}"


def write_set(
    folder: Path, corpus: dict[str, tuple[str, str]], bases: int = 100, distractors: int = 300, seed: int = 16
) -> Labelled:
    rng = random.Random(seed)
    files: dict[str, int] = {}
    positives: set[tuple[str, str]] = set()
    for n, (title, text) in enumerate(documents(corpus, bases + distractors, seed)):
        stem = f"{n:04d}-{_slug(title)}"
        if n >= bases:
            files[_write(folder / "papers" / f"{stem}.txt", text)] = -1 - n
            continue
        family = [
            _write(folder / "papers" / f"{stem}.txt", text),
            _write(folder / "drafts" / f"{stem}-edited.txt", small_edits(text, rng)),
            _write(folder / "scans" / f"{stem}-resaved.txt", resaved_pdf(text, rng)),
            _write(folder / "downloads" / f"{stem} (1).txt", download_copy(text, rng)),
        ]
        for path in family:
            files[path] = n
        positives.update((a, b) if a < b else (b, a) for a in family for b in family if a != b)
    return Labelled(files, positives)


def _write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)
