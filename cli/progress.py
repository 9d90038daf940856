"""A one-line progress bar for `sensetree index`, fed by `indexing-progress` events.

It renders the engine's progress model (engine/indexing/progress.py): the keyword phase (findable by
name and words) fills the bar, the semantic phase (vectors) follows beside it, with the current file,
the rate and the ETA. The engine publishes up to 4 times a second, so the line moves file by file.
An event older than the last one shown (by `seq`) is dropped, and nothing prints after `finish`.

JSON edge: the `indexing-progress` event's payload as JSON, from this process's engine or over the IPC socket.
"""

from __future__ import annotations

import os
from typing import Any, TextIO

WIDTH = 24
LINE_CHARS = 110


def _eta(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f" ETA {seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f" ETA {seconds // 60}m{seconds % 60:02d}s"
    return f" ETA {seconds}s"


class ProgressPrinter:
    def __init__(self, stream: TextIO | None, quiet: bool = False):
        self.stream = stream
        self.quiet = quiet or stream is None
        self.tty = bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())
        self._last = ""
        self._seq = 0
        self._finished = False

    def line(self, stats: dict[str, Any]) -> str:
        keyword = stats.get("keyword") or {}
        semantic = stats.get("semantic") or {}
        finished = stats["done"] + stats["failed"] + stats["skipped"]
        total = max(int(keyword.get("total") or 0), finished + stats["queued"], 1)
        done = int(keyword.get("done", finished))
        filled = min(WIDTH, int(WIDTH * done / total))
        bar = "#" * filled + "-" * (WIDTH - filled)
        parts = [f"[{bar}] {done}/{total} searchable"]
        if semantic:
            parts.append(f"{semantic.get('done', 0)}/{semantic.get('total', 0)} by meaning")
        rate = keyword.get("rate") if done < total else semantic.get("rate")
        if rate:
            eta = keyword.get("eta_s") if done < total else semantic.get("eta_s")
            parts.append(f"{rate:.1f} files/s{_eta(eta)}")
        if stats["failed"]:
            parts.append(f"{stats['failed']} failed")
        current = os.path.basename(
            keyword.get("current") or semantic.get("current") or stats.get("current") or ""
        )
        text = ", ".join(parts) + (f"  {current}" if current else "")
        return text[:LINE_CHARS]

    def on_progress(self, _topic: str, stats: dict[str, Any]) -> None:
        if self.quiet or self.stream is None or self._finished or "done" not in stats:
            return
        seq = int(stats.get("seq") or 0)
        if seq and seq <= self._seq:  # an older snapshot arriving late
            return
        self._seq = max(self._seq, seq)
        text = self.line(stats)
        if text == self._last:
            return
        self._last = text
        if self.tty:
            self.stream.write("\r\x1b[K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self, stats: dict[str, Any]) -> None:
        self._finished = True
        if not self.quiet and self.stream is not None and self.tty:
            self.stream.write("\r\x1b[K" + self.line(stats) + "\n")
            self.stream.flush()
