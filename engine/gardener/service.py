"""`GardenerService`: the Gardener's commands (DESIGN §6a `analyze_directory`, `gardener_health`, and
`propose_gardener_fix`), the agent's `folder_health` text, and the background pass, over one Engine's
catalog, vectors, roots and plan drafts."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.config import GardenerSettings
from engine.db import Database
from engine.events import EventBus
from engine.gardener.analyze import Gardener
from engine.gardener.background import GARDENER_REPORT, BackgroundPass
from engine.gardener.fixes import Op, fix_plan
from engine.gardener.inputs import LeadVectors
from engine.gardener.model import LABELS, FolderReport, Health, RootHealth
from engine.gardener.store import MIGRATIONS, ReportCache
from engine.indexing.catalog import Catalog
from engine.roots import Roots
from engine.txn.model import ActionPlan

AGENT_FINDINGS = 40  # findings listed to the model by folder_health


class GardenerService:
    def __init__(
        self,
        db: Database,
        catalog: Catalog,
        vectors: Callable[[], LeadVectors],
        roots: Roots,
        settings: Callable[[], GardenerSettings],
        events: EventBus,
        propose: Callable[[str, list[Op]], ActionPlan],
        busy: Callable[[], bool],
    ):
        db.migrate(MIGRATIONS)
        self.gardener = Gardener(catalog, vectors, roots, settings)
        self.cache = ReportCache(db)
        self._roots, self._settings = roots, settings
        self._events, self._propose = events, propose
        self.background = BackgroundPass(self.gardener.analyze, roots.paths, self.cache, events, busy)

    def analyze_directory(self, path: str) -> FolderReport:
        report = self.gardener.analyze(path)
        if report.path in self._roots.paths() and self.cache.save(report):
            self._events.publish(
                GARDENER_REPORT,
                {"path": report.path, "severity": report.severity, "headline": report.headline},
            )
        return report

    def gardener_health(self) -> Health:
        rows = []
        for root in self._roots.paths():
            report = self.cache.get(root)
            if report is None:
                rows.append(RootHealth(root, "pending", "Not checked yet."))
            else:
                rows.append(
                    RootHealth(root, report.severity, report.headline, report.counts, report.scanned_at)
                )
        times = [r.scanned_at for r in rows if r.scanned_at is not None]
        return Health(rows, max(times) if times else None)

    def propose_fix(self, path: str, kind: str, keep: Iterable[str] = ()) -> ActionPlan:
        """A draft plan fixing every finding of `kind` under `path`; nothing is changed."""
        summary, operations = fix_plan(self.gardener.analyze(path), kind, self._roots, keep)
        return self._propose(summary, operations)

    def folder_health(self, path: str) -> str:
        """The report as text for the chat agent: headline, then findings with their evidence."""
        report = self.gardener.analyze(path)
        lines = [f"{report.path}: {report.severity} — {report.headline} ({report.files} indexed files)"]
        lines.extend(report.pending)
        for finding in report.findings[:AGENT_FINDINGS]:
            lines.append(f"- [{LABELS[finding.kind]}] {finding.title}. {finding.why}")
            for e in finding.evidence[:6]:
                score = f", score {e.score:g}" if e.score is not None else ""
                size = f", {e.size} bytes" if e.size is not None else ""
                lines.append(f"    {e.path}{size}{score}{', ' + e.note if e.note else ''}")
        if len(report.findings) > AGENT_FINDINGS:
            lines.append(f"[… {len(report.findings) - AGENT_FINDINGS} more findings]")
        lines.append(
            "To fix, propose_actions with the operations you recommend (trash older duplicates, move "
            "misplaced files to the folder named, rename from the sense); the person reviews the plan."
        )
        return "\n".join(lines)

    def start(self) -> None:
        if self._settings().background:
            self.background.start()

    def stop(self) -> None:
        self.background.stop()
