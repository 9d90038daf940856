"""`sensetree tidy PATH [--json]`: the Gardener's report for a folder — severity, headline, then the
findings grouped by kind with their evidence. It only reads; fixes are proposed in the app's Tidy view
(or by the chat agent) as plans the person approves.

Like `search`, it asks the running SenseTree when there is one (over the single-instance socket: the
stores admit one process at a time, and that one has them open), and opens the stores itself only when
none runs. Either way the report arrives as the bridge's JSON, so one renderer serves both.

JSON edge: the folder report as JSON (`plain`), from this process's engine or over the IPC socket.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from cli.context import Context, plain

if TYPE_CHECKING:  # imported when a report is printed: every command builds this one's parser (issue 30)
    from engine.gardener.model import FolderReport


def add_parser(subparsers: Any, context: Context) -> None:
    p = subparsers.add_parser("tidy", help="check a folder's health: duplicates, clutter, bad names …")
    p.add_argument("path", help="an indexed folder (or one inside it)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    def func(args: argparse.Namespace) -> int:
        with context.engine() as engine:
            report = plain(engine.analyze_directory(path=os.path.abspath(args.path)))
        return run(report, args.json, sys.stdout)

    p.set_defaults(func=func)


def run(report: dict[str, Any], as_json: bool, out: TextIO) -> int:
    if as_json:
        print(json.dumps(report, indent=2, ensure_ascii=False), file=out)
        return 0
    from engine.gardener.model import FolderReport

    print("\n".join(report_lines(FolderReport.from_dict(report))), file=out)
    return 0


def report_lines(report: FolderReport) -> list[str]:
    from engine.gardener.model import LABELS

    lines = [f"{report.path}: {report.severity.upper()} — {report.headline} ({report.files} indexed files)"]
    if report.truncated:
        lines.append("  (the folder listing stopped at the entries cap; empty folders were not checked)")
    lines.extend(f"  ({note})" for note in report.pending)
    for kind, label in LABELS.items():
        group = [f for f in report.findings if f.kind == kind]
        if not group:
            continue
        lines.append(f"\n{label.capitalize()} ({len(group)}):")
        for finding in group:
            lines.append(f"  • {finding.title}")
            lines.append(f"    {finding.why}")
            for e in finding.evidence:
                lines.append(f"      - {e.path}{_figures(e.size, e.modified, e.score)}{_note(e.note)}")
    return lines


def _figures(size: int | None, modified: float | None, score: float | None) -> str:
    parts = []
    if size is not None:
        parts.append(f"{size:,} bytes")
    if modified is not None:
        parts.append(time.strftime("%Y-%m-%d", time.localtime(modified)))
    if score is not None:
        parts.append(f"score {score:g}")
    return f"  ({', '.join(parts)})" if parts else ""


def _note(note: str) -> str:
    return f" — {note[:100]}" if note else ""
