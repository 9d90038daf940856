"""`Gardener.analyze(folder)`: every check over one folder, as a `FolderReport`.

The Gardener only reads — the catalog, the stored vectors and the folder listing — and never changes
anything: a fix is a draft plan the person reviews (engine/gardener/fixes.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.config import GardenerSettings
from engine.gardener import duplicates, layout, misplaced, names, stale
from engine.gardener.inputs import LeadVectors, load
from engine.gardener.layout import Lister
from engine.gardener.model import Finding, FolderReport, summarise
from engine.indexing.catalog import Catalog


class Gardener:
    def __init__(
        self,
        catalog: Catalog,
        vectors: Callable[[], LeadVectors],
        lister: Lister,
        require: Callable[[str], str],
        settings: Callable[[], GardenerSettings],
        now: Callable[[], float] = time.time,
    ):
        self._catalog, self._vectors, self._lister = catalog, vectors, lister
        self._require, self._settings, self._now = require, settings, now

    def analyze(self, folder: str) -> FolderReport:
        """All findings under `folder` (which must lie inside an indexed root)."""
        target = self._require(folder)
        s = self._settings()
        tree = layout.read_tree(self._lister, target, s.max_entries)
        inputs = load(self._catalog, self._vectors(), target, s.max_entries)
        exact = duplicates.exact_duplicates(inputs)
        copies = {p for f in exact for p in f.paths if p != f.keep}
        findings: list[Finding] = [
            *exact,
            *duplicates.similar_groups(inputs, s.near_duplicate_cosine, copies),
            *misplaced.misplaced(inputs, s.misplaced_margin, s.misplaced_min_cosine),
            *names.unhelpful_names(inputs),
            *stale.stale_large(inputs, s.large_file_mb, s.stale_days, self._now()),
            *layout.clutter(tree, s.clutter_files),
            *layout.empty_folders(tree, self._lister),
            *layout.too_deep(tree, s.max_depth),
        ]
        severity, headline, counts = summarise(findings)
        return FolderReport(
            target, severity, headline, counts, findings, self._now(), len(inputs.files), tree.truncated
        )
