"""What building the Engine imports: only what its start needs, so the window's first bridge answer
comes sooner (issue 15's "bridge answering" figure, bench/package.py).

The chat SDKs (openai, mcp), the parser libraries of the office/PDF/markup readers and the HTTP client of
a rerank endpoint (httpx, which brings its command line's modules) are imported when first used: a chat,
an MCP server, the first file of that format, a reranker that is not off. These tests fail if a module-level
import brings one of them back into the engine's start.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import ExtractionError
from engine.indexing.extract import extract

REPO = Path(__file__).resolve().parents[2]
# Imported on first use, never by the engine's start (each measured with `python -X importtime`).
DEFERRED = (
    *("openai", "mcp", "httpx"),
    *("pypdf", "docx", "openpyxl", "pptx", "odf", "bs4", "ebooklib", "striprtf"),
)
PROBE = """
import json, sys
from engine.engine import Engine
engine = Engine(sys.argv[1], background=False)
engine.running.close()
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def modules_loaded_by(probe: str, tmp_path: Path, *args: str) -> set[str]:
    """Top-level packages a fresh interpreter has imported after `probe` (printed last, as JSON)."""
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(REPO), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_building_the_engine_leaves_chat_sdks_and_document_parsers_unimported(tmp_path: Path) -> None:
    loaded = modules_loaded_by(PROBE, tmp_path, str(tmp_path / "home"))
    assert "lancedb" in loaded  # the probe did open the stores
    assert sorted(loaded.intersection(DEFERRED)) == []


STORE_PACKAGES = ("lancedb", "lance", "lance_namespace", "duckdb", "numpy", "pyarrow")
FIRST_ANSWER_PROBE = """
import json, sys
import app
Engine = app.engine_class()
imported = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps(imported))
"""


def test_importing_the_engine_leaves_the_stores_libraries_to_the_opening_thread(tmp_path: Path) -> None:
    """The window's first bridge answer waits for `import engine.engine` and `Engine()`'s first part,
    not for LanceDB, DuckDB or numpy: those load as the stores open (engine/store_opening.py)."""
    loaded = modules_loaded_by(FIRST_ANSWER_PROBE, tmp_path)
    assert sorted(loaded.intersection(STORE_PACKAGES)) == []


def test_a_deferred_reader_reads_its_format_on_first_use(tmp_path: Path) -> None:
    from docx import Document

    path = tmp_path / "note.docx"
    document = Document()
    document.add_paragraph("the deferred reader still reads")
    document.save(str(path))
    assert "the deferred reader still reads" in extract(str(path)).text


def test_a_reader_that_cannot_be_imported_says_reinstall_not_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(b"%PDF-1.4\n%%EOF\n")
    monkeypatch.setitem(sys.modules, "engine.indexing.extractors.pdf", None)  # importing it now fails
    with pytest.raises(ExtractionError) as refused:
        extract(str(path))
    assert "Reinstall SenseTree" in str(refused.value)
    assert "Damaged" not in str(refused.value)
