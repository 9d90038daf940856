"""app.py, the composition root: every sub-command is there or the program says which is missing;
library log records and warnings go to the log file, never to the terminal; `serve` prints its URL
before the engine has opened the stores."""

from __future__ import annotations

import sys

import pytest

import app
from engine.embed import HashingEmbedder
from engine.engine import Engine
from tests.cli.helpers import indexed_home, run_cli, run_python

LOGGING_PROBE = """
import logging, sys, warnings
from pathlib import Path
import app
app.configure_logging(Path(sys.argv[1]))
logging.getLogger("pypdf._reader").warning("Ignoring wrong pointing object 6 0 (offset 0)")
warnings.warn("a library's deprecation", DeprecationWarning, stacklevel=1)
logging.getLogger("engine.indexing.worker").warning("our own warning")
"""


ARGS = {
    "index": ["Docs"],
    "search": ["q"],
    "status": [],
    "config": ["get"],
    "serve": [],
    "chat": ["q"],
    "mcp": ["list"],
    "apply": ["id"],
    "tidy": ["Docs"],
    "map": ["q"],
}


def test_every_sub_command_is_registered():
    parser = app.build_parser()
    for command in app.COMMANDS:
        assert parser.parse_args([command, *ARGS[command]]).func


def test_a_sub_command_that_cannot_be_imported_stops_the_program_with_its_name(monkeypatch):
    monkeypatch.setitem(sys.modules, "cli.apply", None)  # import cli.apply now raises ImportError
    with pytest.raises(SystemExit) as stopped:
        app.main(["status"])
    assert "the `apply` command could not be loaded" in str(stopped.value.code)


def test_library_log_records_and_warnings_go_to_the_log_file_not_the_terminal(tmp_path):
    done = run_python("-W", "default", "-c", LOGGING_PROBE, str(tmp_path), timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "WARNING: our own warning\n"
    log = (tmp_path / "logs" / "sensetree.log").read_text(encoding="utf-8")
    assert "pypdf._reader: Ignoring wrong pointing object" in log
    assert "py.warnings" in log and "a library's deprecation" in log
    assert "engine.indexing.worker: our own warning" in log


def test_serve_prints_its_url_before_the_engine_opens_and_stops_when_it_cannot(tmp_path, sensetree_home):
    indexed_home(tmp_path, sensetree_home)
    holder = Engine(sensetree_home, embedder=HashingEmbedder())  # holds the stores, and runs no socket
    try:
        done, _modules = run_cli(["serve"], sensetree_home)
    finally:
        holder.running.close()
    assert done.stdout.startswith("SenseTree UI: http://127.0.0.1:"), done.stderr
    assert done.returncode == 1
    assert "Error: SenseTree is already running and has the index open" in done.stderr
    assert not (sensetree_home / "instance.json").exists()  # released on the way out


def test_help_begins_with_what_the_app_does_for_a_person_not_a_sentence_about_the_code():
    help_text = app.build_parser().format_help()
    description = help_text.split("\n\n")[1]
    assert description.startswith("SenseTree finds, reads and tidies the files in your folders")
    assert "composition root" not in help_text
