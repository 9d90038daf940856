"""A hostile little world for the bounds fuzz: two roots, and everything around them built to get out.

Tree (under tmp_path):
    Docs/               a root: a.txt, sub/b.txt, .hidden, inner -> sub, out -> ../private,
                        file_out -> ../private/secret.txt, loop -> loop, ping <-> pong, Sub? (only on
                        case-insensitive file systems the same folder)
    Café/               a root whose name is NFC
    Cafe\u0301/          its NFD twin: on a file system that tells them apart, a different folder
    DocsEvil/, Docs./, docs/ (where case matters), private/
                        every one holds secret.txt with SECRET, which no fuzzed call may ever return

`generated_paths` writes paths from those parts: `..` chains, symlinks out, the sibling prefix, case
and NFC/NFD variants, trailing dots and slashes, NUL bytes, loops, relative paths and `~`.
`physically_inside` is the oracle: it asks the kernel, by inode, whether a path lies under a root — it
shares no code with engine/roots.py.
"""

from __future__ import annotations

import os
import random
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SECRET = "SECRET-7f3a-outside-the-roots"
NFC_NAME = unicodedata.normalize("NFC", "Café")
NFD_NAME = unicodedata.normalize("NFD", "Café")


@dataclass
class World:
    base: Path
    docs: Path
    cafe: Path

    @property
    def roots(self) -> list[str]:
        return [str(self.docs), str(self.cafe)]

    @property
    def inside_files(self) -> list[str]:
        return [str(self.docs / "a.txt"), str(self.docs / "sub" / "b.txt"), str(self.cafe / "menu.txt")]


def _secret(folder: Path) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "secret.txt").write_text(f"{SECRET} in {folder.name}\n", encoding="utf-8")


def build_world(base: Path) -> World:
    docs, cafe = base / "Docs", base / NFC_NAME
    (docs / "sub").mkdir(parents=True)
    (docs / "a.txt").write_text("alpha invoice from the plumber\n", encoding="utf-8")
    (docs / "sub" / "b.txt").write_text("beta contract for the garden\n", encoding="utf-8")
    (docs / ".hidden").write_text("a dot file\n", encoding="utf-8")
    cafe.mkdir()
    (cafe / "menu.txt").write_text("croissant and coffee\n", encoding="utf-8")
    for name in ("private", "DocsEvil", "Docs.", "docs", NFD_NAME):
        if not (base / name).exists():  # "docs" and the NFD twin are the root itself where names fold
            _secret(base / name)
    os.symlink(docs / "sub", docs / "inner")
    os.symlink("../private", docs / "out")
    os.symlink(base / "private" / "secret.txt", docs / "file_out")
    os.symlink("loop", docs / "loop")
    os.symlink("pong", docs / "ping")
    os.symlink("ping", docs / "pong")
    return World(base, docs, cafe)


_SEGMENTS = [
    "..",
    ".",
    "",
    "sub",
    "a.txt",
    "b.txt",
    "out",
    "file_out",
    "inner",
    "loop",
    "ping",
    "secret.txt",
    "private",
    "Docs",
    "DocsEvil",
    "Docs.",
    "docs",
    "DOCS",
    NFC_NAME,
    NFD_NAME,
    ".hidden",
    "a.txt.",
    "sub.",
    "x\x00y",
    "\x00",
    "nope",
    "…",
    " ",
    "sub ",
]


def _case_variant(rng: random.Random, text: str) -> str:
    return "".join(c.swapcase() if rng.random() < 0.5 else c for c in text)


def generated_paths(world: World, count: int, seed: int = 14) -> list[str]:
    """`count` distinct-ish hostile paths, deterministic for a seed."""
    rng = random.Random(seed)
    base = str(world.base)
    starts = [
        str(world.docs),
        str(world.cafe),
        os.path.join(base, NFD_NAME),
        os.path.join(base, "DocsEvil"),
        os.path.join(base, "Docs."),
        os.path.join(base, "private"),
        base,
        "/",
        "~",
        "relative/path",
        "",
    ]
    out: list[str] = []
    while len(out) < count:
        start = rng.choice(starts)
        if rng.random() < 0.15:
            start = _case_variant(rng, start)
        if rng.random() < 0.1:
            start = unicodedata.normalize(rng.choice(["NFC", "NFD"]), start)
        parts = [start]
        for _ in range(rng.randint(0, 6)):
            parts.append(".." if rng.random() < 0.3 else rng.choice(_SEGMENTS))
        path = "/".join(parts)
        roll = rng.random()
        if roll < 0.1:
            path += "/"
        elif roll < 0.17:
            path += "."
        elif roll < 0.22:
            path += "/."
        elif roll < 0.25:
            path += "\x00"
        elif roll < 0.28:
            path = path.replace("/", "//")
        out.append(path)
    return out


def physically_inside(path: str, roots: list[str]) -> bool:
    """Whether `path` lies under a root by the kernel's own account: the longest existing prefix is
    stat'ed and its real parents are walked through `..` until a root's (device, inode) turns up."""
    targets = {(s.st_dev, s.st_ino) for s in (os.stat(r) for r in roots)}
    probe = path
    while not os.path.lexists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            return False
        probe = parent
    if os.path.islink(probe):
        return False  # a link left unresolved (a loop): it names nothing inside
    folder = probe if os.path.isdir(probe) else os.path.dirname(probe)
    seen: set[tuple[int, int]] = set()
    while True:
        st = os.stat(folder)
        key = (st.st_dev, st.st_ino)
        if key in targets:
            return True
        if key in seen:
            return False  # reached "/", whose parent is itself
        seen.add(key)
        folder = os.path.join(folder, "..")
