"""`sensetree tidy PATH [--json]` and `sensetree map "query" [--scope DIR]` through app.main: with no
SenseTree running they open the stores themselves; with one running they ask it over the
single-instance socket, as `search` does, and open nothing."""

from __future__ import annotations

import json
import os

import app
from engine.embed import HashingEmbedder
from engine.engine import Engine
from tests.cli.helpers import HEAVY, indexed_home, run_cli
from tests.cli.test_instance import serve_instance  # noqa: F401  (the fixture)


def _indexed(tmp_path, sensetree_home):
    docs = tmp_path / "Docs"
    (docs / "Invoices").mkdir(parents=True)
    (docs / "Trips").mkdir()
    (docs / "Invoices" / "acme.txt").write_text("Invoice from ACME Corp, 1250 EUR for consulting in March.\n")
    (docs / "Trips" / "acme-copy.txt").write_text(
        "Invoice from ACME Corp, 1250 EUR for consulting in March.\n"
    )
    (docs / "Trips" / "lisbon.txt").write_text(
        "Lisbon trip: flights, a hotel in Alfama, trams and pastries.\n"
    )
    (docs / "Empty").mkdir()
    (sensetree_home / "settings.json").write_text(
        json.dumps({"embedding": {"model": "hashing-384"}}), encoding="utf-8"
    )
    assert app.main(["index", str(docs)]) == 0
    return os.path.realpath(docs)


def test_tidy_prints_the_findings_and_their_evidence_as_text_and_json(tmp_path, sensetree_home, capsys):
    docs = _indexed(tmp_path, sensetree_home)
    capsys.readouterr()
    assert app.main(["tidy", docs]) == 0
    text = capsys.readouterr().out
    assert "Exact duplicates (1):" in text and f"{docs}/Trips/acme-copy.txt" in text
    assert "Empty folders (1):" in text
    assert app.main(["tidy", docs, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    kinds = sorted((f["kind"], f["evidence"][0]["path"]) for f in report["findings"])
    assert kinds == [("duplicate", f"{docs}/Invoices/acme.txt"), ("empty_folder", f"{docs}/Empty")]


def test_map_prints_the_scored_tree_with_the_best_branch_first(tmp_path, sensetree_home, capsys):
    docs = _indexed(tmp_path, sensetree_home)
    capsys.readouterr()
    assert app.main(["map", "Lisbon hotel Alfama trams", "--scope", docs]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(f"{docs}/") and lines[1].endswith("Trips/") and "lisbon.txt" in lines[2]
    assert app.main(["map", "Lisbon hotel", "--scope", docs, "--json"]) == 0
    tree = json.loads(capsys.readouterr().out)
    assert tree["path"] == docs and tree["children"][0]["name"] == "Trips"


def test_tidy_and_map_ask_the_running_instance_and_open_no_store(tmp_path, sensetree_home, serve_instance):
    docs = indexed_home(tmp_path, sensetree_home)
    (docs / "copy-of-a.txt").write_bytes((docs / "a.txt").read_bytes())
    engine = Engine(sensetree_home, embedder=HashingEmbedder())  # holds the stores: a second opener fails
    try:
        engine.reindex_path(str(docs))
        engine.parts.index.drain()
        serve_instance(engine, sensetree_home)
        tidy, tidy_modules = run_cli(["tidy", str(docs), "--json"], sensetree_home)
        text, _ = run_cli(["tidy", str(docs)], sensetree_home)
        mapped, map_modules = run_cli(["map", "orchard budget", "--scope", str(docs)], sensetree_home)
    finally:
        engine.running.close()
    assert tidy.returncode == 0, tidy.stderr
    report = json.loads(tidy.stdout)
    assert [(f["kind"], f["evidence"][0]["path"]) for f in report["findings"]] == [
        ("duplicate", str(docs / "a.txt"))
    ]
    assert text.returncode == 0 and "Exact duplicates (1):" in text.stdout
    assert mapped.returncode == 0, mapped.stderr
    assert mapped.stdout.splitlines()[0].endswith(f"{docs}/") and "a.txt" in mapped.stdout
    assert sorted((tidy_modules | map_modules) & set(HEAVY)) == []  # the instance answered both
