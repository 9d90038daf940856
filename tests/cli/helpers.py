"""Running `sensetree` as the person does, in a fresh interpreter that then lists what it imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.embed import HashingEmbedder
from engine.engine import Engine

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("lancedb", "torch", "transformers", "openai", "mcp", "pypdf", "duckdb", "pyarrow")
PROBE = """
import json, runpy, sys
sys.argv = ["sensetree", *json.loads(sys.argv[1])]
code = 0
try:
    runpy.run_path("app.py", run_name="__main__")
except SystemExit as exc:
    code = exc.code or 0
print("MODULES " + json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def run_cli(args: list[str], home: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """The finished command and the top-level packages it imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO), "SENSETREE_HOME": str(home)},
        check=False,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return done, {name.split(".")[0] for name in json.loads(line.removeprefix("MODULES "))}


def run_python(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`python *argv` in a fresh interpreter, in this checkout and importing it (not an installed copy)."""
    return subprocess.run(
        [sys.executable, *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text("the orchard budget for spring", encoding="utf-8")
    (folder / "b.txt").write_text("the greenhouse minutes of the board", encoding="utf-8")
    return folder


def indexed_home(tmp_path: Path, home: Path) -> Path:
    """A data dir with a folder of two files indexed (hashing embedder, as in settings), closed again."""
    docs = write_docs(tmp_path / "Docs")
    (home / "settings.json").write_text(json.dumps({"embedding": {"model": "hashing-384"}}), encoding="utf-8")
    engine = Engine(home, embedder=HashingEmbedder())
    try:
        engine.add_indexed_folder(str(docs))
        engine.parts.index.drain()
    finally:
        engine.running.close()
    return docs
