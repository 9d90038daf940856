"""`sensetree apply`: approve a plan from the command line, leaving out what the person skips."""

from __future__ import annotations

import json

import app


def test_apply_from_the_command_line_moves_what_was_kept_and_undo_puts_it_back(
    tmp_path, sensetree_home, capsys
):
    docs = tmp_path / "Docs"
    docs.mkdir()
    (docs / "a.txt").write_text("invoice from ACME")
    (docs / "b.txt").write_text("invoice from Globex")
    (sensetree_home / "settings.json").write_text(
        json.dumps({"roots": [str(docs)], "embedding": {"model": "hashing-384"}}), encoding="utf-8"
    )
    engine = app.build_engine()
    plan = engine.parts.txn.propose_plan(
        "File invoices",
        [
            {"kind": "mkdir", "new_path": f"{docs}/Invoices", "reason": "a home"},
            {
                "kind": "move",
                "old_path": f"{docs}/a.txt",
                "new_path": f"{docs}/Invoices/a.txt",
                "reason": "ACME",
            },
            {
                "kind": "move",
                "old_path": f"{docs}/b.txt",
                "new_path": f"{docs}/Invoices/b.txt",
                "reason": "Globex",
            },
        ],
    )
    engine.running.close()
    tid = plan["transaction_id"]
    assert app.main(["apply", tid]) == 1  # no terminal to ask: nothing happens without --yes
    assert (docs / "a.txt").exists()
    assert app.main(["apply", tid, "--skip", "3", "--yes"]) == 0
    assert (docs / "Invoices" / "a.txt").exists() and (docs / "b.txt").exists()
    assert "Applied 2" in capsys.readouterr().out
    assert app.main(["apply", tid, "--undo"]) == 0
    assert (docs / "a.txt").exists() and not (docs / "Invoices").exists()


def test_apply_with_an_unknown_id_says_what_to_do(sensetree_home, capsys):
    (sensetree_home / "settings.json").write_text('{"embedding": {"model": "hashing-384"}}', encoding="utf-8")
    assert app.main(["apply", "nope", "--yes"]) == 1
    assert "No plan has the id nope" in capsys.readouterr().err
