"""Stale large files: at least `large_file_mb` and untouched for `stale_days` (both in settings), from
the catalog's size and modification time — the space a person could reclaim first."""

from __future__ import annotations

from engine.gardener.inputs import Inputs
from engine.gardener.model import SEVERITY, Evidence, Finding

DAY = 86_400.0


def stale_large(inputs: Inputs, large_mb: float, stale_days: int, now: float) -> list[Finding]:
    min_bytes = large_mb * 1_000_000
    cutoff = now - stale_days * DAY
    findings = []
    for f in inputs.files:
        if f.size is not None and f.size >= min_bytes and f.modified is not None and f.modified <= cutoff:
            age = int((now - f.modified) // DAY)
            findings.append(
                Finding(
                    "stale_large",
                    SEVERITY["stale_large"],
                    f"{f.name} is large and untouched for {age} days",
                    f"{f.size / 1_000_000:.1f} MB, last changed {age} days ago (thresholds: "
                    f"{large_mb:g} MB, {stale_days} days).",
                    [Evidence(f.path, f.size, f.modified, None, f"{age} days old")],
                )
            )
    return findings
