"""A generated folder of mixed documents on real text, for benches that race another indexer.

The text is what every Python install carries: the docstrings of the standard library's modules,
classes and functions (English prose nobody wrote for this bench), cut into paragraphs. Each file
takes a few consecutive paragraphs and is written as plain text, Markdown, HTML, Word or PDF in turn
(the Word and PDF writers are the personal-folder generator's), spread over sub-folders like a real
Documents folder. Every file also carries one word of its own (`marker(n)`, letters only so every
tokenizer keeps it whole), so a bench can ask whether file n is searchable yet.
"""

from __future__ import annotations

import ast
import re
import sysconfig
from datetime import datetime
from html import escape
from pathlib import Path

from personal_folder.plan import Entry
from personal_folder.writers import write_all

FORMATS = ("txt", "md", "html", "docx", "pdf")
PER_FILE = 3  # paragraphs in a file (2,000 files take 6,000 of the ~6,400 there are)
FOLDERS = 20


def paragraphs(wanted: int) -> list[str]:
    """Up to `wanted` docstring paragraphs of 12+ words from the standard library, in a stable order."""
    found: list[str] = []
    for source in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if {"test", "tests", "idlelib", "site-packages"} & set(source.parts):
            continue
        try:
            tree = ast.parse(source.read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                found.extend(_prose(ast.get_docstring(node) or ""))
        if len(found) >= wanted:
            break
    return found[:wanted]


def _prose(docstring: str) -> list[str]:
    return [
        " ".join(part.split())
        for part in re.split(r"\n\s*\n", docstring)
        if len(part.split()) >= 12 and ">>>" not in part
    ]


def marker(n: int) -> str:
    """A word only file n holds: `qz` and n in letters (a stemmer leaves it as it is)."""
    letters = ""
    while True:
        n, digit = divmod(n, 26)
        letters = "abcdefghijklmnopqrstuvwxyz"[digit] + letters
        if n == 0:
            return f"qz{letters}q"


def write(root: Path, files: int) -> list[Path]:
    """`files` documents under `root` (file n holds `marker(n)`); returns their paths in order."""
    pool = paragraphs(files * PER_FILE)
    if not pool:
        raise RuntimeError("no standard-library docstrings found to build documents from")
    entries, html = [], []
    for n in range(files):
        first = n * PER_FILE
        body = [pool[(first + i) % len(pool)] for i in range(PER_FILE)]
        title = " ".join(body[0].split()[:6])
        text = "\n\n".join([title, *body, f"Reference {marker(n)}."])
        fmt = FORMATS[n % len(FORMATS)]
        path = f"folder-{n % FOLDERS:02d}/doc-{n:05d}.{fmt}"
        if fmt == "html":
            html.append((root / path, title, text))
        else:
            entries.append(Entry(path, fmt, text, datetime(2024, 1, 1), path))
    write_all(root, entries)
    for target, title, text in html:
        target.parent.mkdir(parents=True, exist_ok=True)
        paras = "".join(f"<p>{escape(p)}</p>" for p in text.split("\n\n"))
        target.write_text(
            f"<html><head><title>{escape(title)}</title></head><body>{paras}</body></html>", encoding="utf-8"
        )
    return [root / f"folder-{n % FOLDERS:02d}/doc-{n:05d}.{FORMATS[n % len(FORMATS)]}" for n in range(files)]
