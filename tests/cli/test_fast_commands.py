"""`sensetree --help`, `status` and `config get` start without the heavy libraries (issue 12, item 6):
they are run as the person runs them, in a fresh interpreter, which then lists what it imported."""

from __future__ import annotations

import json
import os

import pytest

from cli.context import plain
from engine.embed import HashingEmbedder
from engine.engine import Engine
from tests.cli.helpers import HEAVY, indexed_home, run_cli, run_python


@pytest.mark.parametrize("args", [["--help"], ["config", "get", "reasoning.base_url"], ["status"]])
def test_fast_commands_do_not_import_the_stores_the_model_or_the_agent(args, sensetree_home):
    done, modules = run_cli(args, sensetree_home)
    assert done.returncode == 0, done.stderr
    assert sorted(modules & set(HEAVY)) == []


def test_status_of_an_indexed_folder_reads_the_counts_without_opening_the_stores(tmp_path, sensetree_home):
    docs = indexed_home(tmp_path, sensetree_home)
    done, modules = run_cli(["status"], sensetree_home)
    assert done.returncode == 0, done.stderr
    assert f"  {docs}" in done.stdout
    assert "Files: 2 (2 done, 0 by name only, 0 failed, 0 queued); chunks: 2" in done.stdout
    assert sorted(modules & set(HEAVY)) == []


def test_status_json_from_the_database_has_the_engines_figures(tmp_path, sensetree_home):
    docs = indexed_home(tmp_path, sensetree_home)
    done, _modules = run_cli(["status", "--json"], sensetree_home)
    report = json.loads(done.stdout)
    engine = Engine(sensetree_home, embedder=HashingEmbedder())
    try:
        stats = plain(engine.indexing_stats())  # the JSON `status --json` prints, as the CLI turns it
        expected = {**stats, "roots": [str(docs)], "per_root": stats["roots"], "failed_files": []}
        assert {**report, "seq": 0} == {**expected, "seq": 0}  # the folder's paths; its counts per root
    finally:
        engine.running.close()


AGENT_AND_READERS = (
    "openai",
    "mcp",
    "torch",
    "transformers",
    "pypdf",
    "docx",
    "openpyxl",
    "pptx",
    "bs4",
    "odf",
)


def test_search_with_none_running_imports_neither_the_agent_nor_the_file_readers(tmp_path, sensetree_home):
    docs = indexed_home(tmp_path, sensetree_home)  # the hashing embedder: nothing needs torch either
    done, modules = run_cli(["search", "orchard"], sensetree_home)
    assert done.returncode == 0, done.stderr
    first = next(line for line in done.stdout.splitlines() if line.startswith(" 1. "))  # keyword hits first
    assert first.endswith(f"a.txt  (in {docs}{os.sep})")  # name, then its folder
    assert sorted(modules & set(AGENT_AND_READERS)) == []


LAZY_AGENT = """
import json, sys
from cli.context import plain
from engine.engine import Engine
from engine.embed import HashingEmbedder
engine = Engine(sys.argv[1], embedder=HashingEmbedder())
WATCHED = {"openai", "mcp", "engine.agent.service"}
def loaded():
    return sorted(m for m in WATCHED if m in sys.modules)
at_start = loaded()
memory = engine.agent_memory_list()
after = loaded()
engine.running.close()
print(json.dumps({"at_start": at_start, "memory": memory, "after": after}))
"""


def test_the_engine_builds_its_agent_at_the_first_agent_command_not_at_start(sensetree_home):
    done = run_python("-c", LAZY_AGENT, str(sensetree_home))
    assert done.returncode == 0, done.stderr
    # the agent is built by its first command; the SDKs wait longer still: openai for the first chat
    # turn, mcp for the first MCP server (engine/agent/model.py, mcp.py)
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "at_start": [],
        "memory": [],
        "after": ["engine.agent.service"],
    }


START = """
import json, sys
import app
from engine import native_memory
native_memory.limit_arenas()
app.build_parser()
print(json.dumps(sorted(sys.modules)))
"""


def test_every_command_starts_without_searching_for_libc_or_loading_the_gardeners_report_model():
    # what each command pays before its own work (the cold `search` has ~0.3 CPU-s to its keyword hits):
    # ctypes.util ran `ldconfig -p` and cost ~13 ms to import; `tidy`'s report model ~5 ms (issue 30)
    done = run_python("-c", START)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout))
    assert {"ctypes.util", "engine.gardener.model"} & modules == set()
