"""The Gardener's results, declared once: a `Finding` per symptom with its `Evidence`, a `FolderReport`
per checked folder, and the one-line health of each root. The bridge serialises these dataclasses
(bridge.to_jsonable); the background cache stores them as JSON and reads them back with `from_dict`.

JSON edge: a `FolderReport` is kept in a SQLite JSON column (engine/gardener/store.py) and read back by
`from_dict`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Kind = Literal[
    "duplicate",
    "near_duplicate",
    "version",
    "misplaced",
    "unhelpful_name",
    "stale_large",
    "clutter",
    "empty_folder",
    "depth",
]
Severity = Literal["ok", "info", "warn"]

# One severity per kind: what wastes space or hides files is a warning; what is merely untidy is info.
SEVERITY: dict[str, Severity] = {
    "duplicate": "warn",
    "near_duplicate": "warn",
    "version": "warn",
    "misplaced": "warn",
    "unhelpful_name": "warn",
    "stale_large": "warn",
    "clutter": "warn",
    "empty_folder": "info",
    "depth": "info",
}
KINDS: tuple[str, ...] = tuple(SEVERITY)
LABELS: dict[str, str] = {
    "duplicate": "exact duplicates",
    "near_duplicate": "near-duplicates",
    "version": "old versions",
    "misplaced": "misplaced files",
    "unhelpful_name": "unhelpful names",
    "stale_large": "stale large files",
    "clutter": "cluttered folders",
    "empty_folder": "empty folders",
    "depth": "deep folders",
}
SINGULAR: dict[str, str] = {
    "duplicate": "exact duplicate",
    "near_duplicate": "near-duplicate",
    "version": "old version",
    "misplaced": "misplaced file",
    "unhelpful_name": "unhelpful name",
    "stale_large": "stale large file",
    "clutter": "cluttered folder",
    "empty_folder": "empty folder",
    "depth": "deep folder",
}
RANK: dict[str, int] = {"ok": 0, "info": 1, "warn": 2}


@dataclass(frozen=True)
class Evidence:
    """One file or folder a finding is about, with the figures that make the case."""

    path: str
    size: int | None = None
    modified: float | None = None
    score: float | None = None  # a similarity, where the finding rests on one
    note: str = ""
    confident: bool = True  # a fix comes with this file's operation ticked only when True


@dataclass(frozen=True)
class Finding:
    """A symptom. `paths` are what a fix would act on; `keep` is the file a duplicate fix keeps;
    `target` is where a misplaced file belongs or the name an unhelpful one should get."""

    kind: str
    severity: Severity
    title: str
    why: str
    evidence: list[Evidence]
    keep: str | None = None
    target: str | None = None

    @property
    def paths(self) -> list[str]:
        return [e.path for e in self.evidence]


@dataclass(frozen=True)
class FolderReport:
    path: str
    severity: Severity
    headline: str
    counts: dict[str, int]
    findings: list[Finding]
    scanned_at: float
    files: int
    truncated: bool = False  # the listing stopped at the entries cap: disk checks saw part of the tree
    # Checks that need understood files and are incomplete while some are not: "… waiting for N files".
    pending: list[str] = field(default_factory=list)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> FolderReport:
        findings = [
            Finding(**{**f, "evidence": [Evidence(**e) for e in f["evidence"]]}) for f in data["findings"]
        ]
        return FolderReport(**{**data, "findings": findings})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RootHealth:
    path: str
    severity: Severity | Literal["pending"]
    headline: str
    counts: dict[str, int] = field(default_factory=dict)
    scanned_at: float | None = None


@dataclass(frozen=True)
class Health:
    roots: list[RootHealth]
    scanned_at: float | None


PENDING_CHECKS = "Near-duplicates, versions and misplaced files"


def pending_note(waiting: int) -> list[str]:
    """What a report says while files are still being understood, instead of silently finding nothing."""
    if waiting <= 0:
        return []
    return [f"{PENDING_CHECKS}: waiting for {waiting} file{'s' if waiting != 1 else ''} to be understood."]


def summarise(findings: list[Finding]) -> tuple[Severity, str, dict[str, int]]:
    """The severity (the worst finding's), a one-line headline of the symptoms and counts per kind."""
    counts = {kind: 0 for kind in KINDS}
    for finding in findings:
        counts[finding.kind] += 1
    severity: Severity = "ok"
    for finding in findings:
        if RANK[finding.severity] > RANK[severity]:
            severity = finding.severity
    parts = [f"{n} {LABELS[k] if n > 1 else SINGULAR[k]}" for k, n in counts.items() if n]
    headline = ", ".join(parts) if parts else "Nothing to tidy."
    return severity, headline[:1].upper() + headline[1:], {k: n for k, n in counts.items() if n}
