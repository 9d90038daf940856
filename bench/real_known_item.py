"""A folder of real documents with known-item queries, for bench/recoll_known_item.py's second kind of data.

The personal folders (bench/personal_folder) are generated: their words come from a few templates and
pools, so a rule tuned on them could fit their vocabulary. This folder is what the machine itself holds
(bench/real_text.py's sources: man pages with their troff markup dropped, /usr/share/doc's texts, the
licences, the Python standard library), each document written as a text file at its own relative path.
Its known-item queries follow the personal folder's rule (bench/personal_folder/queries.known_item):
3-5 consecutive words of one line of one document, at least two of them content words, that no other
document of the folder holds. Deterministic for one (files, seed); a kept folder is reused as it is.

    root, queries = build(Path("/tmp/real"), files=300, seed=0)
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from personal_folder.queries import STOP, words
from real_text import read_text, source_files

MIN_CHARS, MAX_CHARS = 400, 6_000  # documents of a few chunks: the Engine embeds them all on the CPU
QUERIES = 50
_LINE = re.compile(r"(?<=[.!?;:])\s+|\n")
_FIRST = re.compile(r"[-_.]")
_EDGE = ".,;:!?()#*-\"'`<>[]{}"

Queries = list[tuple[str, frozenset[str]]]


def build(root: Path, files: int, seed: int) -> tuple[Path, Queries]:
    """`files` real documents under `root` and their known-item queries (kept in root/../queries.json)."""
    labels = root.with_name(root.name + "-queries.json")
    if root.exists() and labels.exists():
        return root, [(t, frozenset(r)) for t, r in json.loads(labels.read_text(encoding="utf-8"))]
    texts = documents(files, random.Random(seed))
    for rel, text in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    queries = known_items(texts, random.Random(seed), QUERIES)
    labels.write_text(json.dumps([(t, sorted(r)) for t, r in queries]), encoding="utf-8")
    return root, queries


def documents(files: int, rng: random.Random) -> dict[str, str]:
    """Relative path (the source's own, as .txt) -> text of `files` real documents of a few chunks, no
    two with the same text, dealt one family at a time (a folder and a name's first word: thousands of
    this machine's man pages are gcloud's, which would otherwise be most of the folder)."""
    families: dict[tuple[str, str], list[Path]] = {}
    for path in source_files():
        families.setdefault((str(path.parent), _FIRST.split(path.name)[0]), []).append(path)
    for members in families.values():
        rng.shuffle(members)
    order = sorted(families)
    rng.shuffle(order)
    longest = max(len(members) for members in families.values())
    dealt = (families[f][i] for i in range(longest) for f in order if i < len(families[f]))
    out: dict[str, str] = {}
    seen: set[str] = set()
    for path in dealt:
        text = read_text(path)
        if not MIN_CHARS <= len(text) <= MAX_CHARS or text in seen:
            continue
        seen.add(text)
        out["/".join(part.lstrip(".") for part in path.with_suffix("").parts[1:]) + ".txt"] = (
            text  # none hidden
        )
        if len(out) == files:
            break
    return out


def known_items(texts: dict[str, str], rng: random.Random, count: int) -> Queries:
    """Up to `count` known-item queries, one per document in a shuffled order (the module docstring)."""
    normed = {rel: f" {' '.join(words(text))} " for rel, text in texts.items()}
    order = sorted(texts)
    rng.shuffle(order)
    out: Queries = []
    for rel in order:
        lines = [line.split() for line in _LINE.split(texts[rel]) if len(line.split()) >= 5]
        for _attempt in range(8 if lines else 0):
            line = rng.choice(lines)
            n = rng.randint(3, 5)
            start = rng.randrange(0, len(line) - n + 1)
            phrase = " ".join(w.strip(_EDGE) for w in line[start : start + n])
            key = " ".join(words(phrase))
            if len(key.split()) != n or len([w for w in key.split() if w not in STOP and w.isalpha()]) < 2:
                continue
            relevant = frozenset(p for p, t in normed.items() if f" {key} " in t)
            if relevant == {rel}:
                out.append((phrase, relevant))
                break
        if len(out) == count:
            break
    return out


def engine_over(root: Path, home: Path):  # type: ignore[no-untyped-def]
    """An Engine (packaged model, no reasoning model) with `root` indexed; a kept home is reopened."""
    from engine.engine import Engine

    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"indexing": {"qualify_with_model": False}}))
    engine = Engine(home)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    return engine
