"""`sensetree tidy PATH [--json]` and `sensetree map "query" [--scope DIR]` through app.main."""

from __future__ import annotations

import json
import os

import app


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
    assert kinds == [("duplicate", f"{docs}/Trips/acme-copy.txt"), ("empty_folder", f"{docs}/Empty")]


def test_map_prints_the_scored_tree_with_the_best_branch_first(tmp_path, sensetree_home, capsys):
    docs = _indexed(tmp_path, sensetree_home)
    capsys.readouterr()
    assert app.main(["map", "Lisbon hotel Alfama trams", "--scope", docs]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(f"{docs}/") and lines[1].endswith("Trips/") and "lisbon.txt" in lines[2]
    assert app.main(["map", "Lisbon hotel", "--scope", docs, "--json"]) == 0
    tree = json.loads(capsys.readouterr().out)
    assert tree["path"] == docs and tree["children"][0]["name"] == "Trips"
