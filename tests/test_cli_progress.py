"""The CLI bar renders the progress model: the current file, both phases, and never an older snapshot."""

from __future__ import annotations

import io

from cli.progress import ProgressPrinter


def snapshot(seq: int, done: int, current: str | None, total: int = 10) -> dict:
    return {
        "seq": seq,
        "keyword": {"done": done, "total": total, "current": current, "rate": 2.0, "eta_s": 3.0},
        "semantic": {"done": 0, "total": total, "current": None, "rate": None, "eta_s": None},
        "files": total,
        "chunks": done,
        "queued": total - done,
        "done": done,
        "failed": 0,
        "skipped": 0,
        "paused": False,
    }


def test_the_bar_moves_per_file_and_names_the_current_file():
    out = io.StringIO()
    printer = ProgressPrinter(out)
    printer.on_progress("indexing-progress", snapshot(1, 1, "/d/a.txt"))
    printer.on_progress("indexing-progress", snapshot(2, 2, "/d/b.txt"))
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert "1/10 searchable" in lines[0] and lines[0].endswith("a.txt")
    assert "2/10 searchable" in lines[1] and "0/10 by meaning" in lines[1] and "ETA 3s" in lines[1]


def test_an_older_snapshot_and_anything_after_finish_are_not_printed():
    out = io.StringIO()
    printer = ProgressPrinter(out)
    printer.on_progress("indexing-progress", snapshot(5, 4, "/d/d.txt"))
    printer.on_progress("indexing-progress", snapshot(3, 2, "/d/b.txt"))  # late
    printer.finish(snapshot(6, 10, None))
    printer.on_progress("indexing-progress", snapshot(7, 10, None))  # a trailing publish
    printer.on_progress("indexing-progress", {"reembedding": {"done": 1}})
    assert len(out.getvalue().splitlines()) == 1 and "4/10" in out.getvalue()
