"""Load the embedder the way the frozen bundle does, in a fresh interpreter, and report what it read.

Run by tests/packaging/test_frozen_import_path.py (the release gate in `make test`):
`python frozen_import_probe.py [--keep MODULE]... [--no-runtime-hook]`. The bundle's view is emulated
in an ordinary venv: the modules the spec excludes (build/bundle_imports.py and this OS's
build/bundle_plan.py) cannot be found, as in the frozen app, and the runtime hook
(build/rthook_sensetree.py) sets its environment first. Then the embedder loads the packaged model and
embeds one text. The last line printed is JSON: the vector size, the top-level packages imported, and
the package data files opened inside site-packages (code and distribution metadata left out).
`--keep` and `--no-runtime-hook` rebuild an older bundle's view, so the gate can show it fails there.
"""

from __future__ import annotations

import argparse
import importlib.abc
import json
import os
import runpy
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "build")]
from bundle_imports import EXCLUDES, excluded  # noqa: E402
from bundle_plan import plan  # noqa: E402

CODE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")


class BundleView(importlib.abc.MetaPathFinder):
    """sys.meta_path as the bundle sees it: the excluded modules are not found (find_spec gives None,
    as PyInstaller's importer does for a module it did not collect), everything else is."""

    def __init__(self, finders: list, excludes: list[str]):
        self.finders, self.excludes = finders, excludes

    def find_spec(self, name, path=None, target=None):
        if excluded(name, self.excludes):
            return None
        for finder in self.finders:
            spec = finder.find_spec(name, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None:
                return spec
        return None

    def find_distributions(self, *args, **kwargs):
        for finder in self.finders:
            if hasattr(finder, "find_distributions"):
                yield from finder.find_distributions(*args, **kwargs)

    def invalidate_caches(self) -> None:
        for finder in self.finders:
            if hasattr(finder, "invalidate_caches"):
                finder.invalidate_caches()


def package_data(path: str, roots: list[str]) -> str | None:
    """`path` relative to site-packages when it is a package's data file, else None."""
    for root in roots:
        if path.startswith(root + os.sep):
            rel = path[len(root) + 1 :].replace(os.sep, "/")
            code = rel.endswith(CODE_SUFFIXES) or ".so." in rel or "__pycache__" in rel
            return None if code or rel.split("/", 1)[0].endswith(".dist-info") else rel
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", action="append", default=[], help="a module the bundle would carry")
    parser.add_argument("--no-runtime-hook", action="store_true")
    args = parser.parse_args()
    excludes = [name for name in EXCLUDES + plan(sys.platform).excludes if name not in args.keep]
    sys.meta_path[:] = [BundleView(list(sys.meta_path), excludes)]
    if not args.no_runtime_hook:
        runpy.run_path(str(REPO / "build" / "rthook_sensetree.py"))

    roots = sorted({os.path.realpath(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")})
    opened: set[str] = set()

    def audit(event: str, event_args: tuple) -> None:
        if event == "open" and isinstance(event_args[0], str):
            rel = package_data(os.path.realpath(event_args[0]), roots)
            if rel:
                opened.add(rel)

    sys.addaudithook(audit)
    from engine.embed import TransformerEmbedder

    vectors = TransformerEmbedder().embed(["pancakes need flour, eggs and milk"])
    imported = sorted({name.split(".")[0] for name in sys.modules})
    print(json.dumps({"dim": int(vectors.shape[1]), "imported": imported, "opened": sorted(opened)}))


if __name__ == "__main__":
    main()
