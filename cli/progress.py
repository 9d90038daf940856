"""A one-line progress bar for `sensetree index`, fed by `indexing-progress` events."""

from __future__ import annotations

import os
from typing import Any, TextIO

WIDTH = 28


class ProgressPrinter:
    def __init__(self, stream: TextIO | None, quiet: bool = False):
        self.stream = stream
        self.quiet = quiet or stream is None
        self.tty = bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())
        self._last = ""

    def line(self, stats: dict[str, Any]) -> str:
        finished = stats["done"] + stats["failed"] + stats["skipped"]
        total = max(finished + stats["queued"], 1)
        filled = int(WIDTH * finished / total)
        bar = "#" * filled + "-" * (WIDTH - filled)
        current = os.path.basename(stats.get("current") or "")
        counts = f"{finished}/{total} files, {stats['chunks']} chunks, {stats['failed']} failed"
        return f"[{bar}] {counts}  {current}"[:110]

    def on_progress(self, _topic: str, stats: dict[str, Any]) -> None:
        if self.quiet or self.stream is None:
            return
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
        if not self.quiet and self.stream is not None and self.tty:
            self.stream.write("\r\x1b[K" + self.line(stats) + "\n")
            self.stream.flush()
