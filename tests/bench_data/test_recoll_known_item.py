"""The Recoll known-item bench indexes a folder in a configuration of its own, reads Recoll's first results
as paths, and skips with a message where Recoll is not installed."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from bench import recoll_known_item

HAS_RECOLL = all(shutil.which(tool) for tool in ("recollindex", "recollq"))


def test_without_recoll_on_path_the_bench_says_so_and_runs_nothing(monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda tool: None)
    monkeypatch.setattr(sys, "argv", ["recoll_known_item.py", "--seeds", "3"])
    recoll_known_item.main()
    assert capsys.readouterr().out.startswith("skipped: recollindex, recollq not on PATH")


@pytest.mark.skipif(not HAS_RECOLL, reason="recollindex/recollq not installed")
def test_recoll_finds_a_file_holding_every_word_and_only_inside_its_own_configuration(tmp_path: Path):
    root = tmp_path / "person"
    (root / "Recipes").mkdir(parents=True)
    (root / "Recipes" / "banana-bread.md").write_text("Mash three ripe bananas into the batter.\n")
    (root / "notes.md").write_text("Bananas are cheap this week.\n")
    conf = tmp_path / "conf"
    recoll_known_item.recoll_config(conf, root)
    recoll_known_item.recoll_index(conf)
    assert recoll_known_item.recoll_top(conf, "ripe bananas batter", root) == ["Recipes/banana-bread.md"]
    assert (conf / "xapiandb").is_dir()
