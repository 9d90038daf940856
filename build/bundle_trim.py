"""Files the hooks collect into the bundle that the frozen app never reads, left out by build/sensetree.spec.

Why a module of its own: each rule here was measured on a built bundle (docs/packaging.md, "What is in
the bundle"), and the same predicate must serve both the spec (on PyInstaller's TOC) and a quick
re-measurement on an already built tree (`python build/bundle_trim.py DIST_DIR`, which deletes what the
spec would leave out and prints how much), so a trim can be tried in minutes instead of a 15-50 minute
rebuild, and the rebuilt bundle matches what was tried. `tests/packaging/test_bundle_trim.py` pins it.

The rules:
- Python sources shipped next to their bytecode. PyInstaller's torch and transformers hooks collect
  every module both as bytecode (in the PYZ archive, what is imported) and as a `.py` file
  (module_collection_mode "pyz+py"), for TorchScript's `inspect.getsource` on scripted functions. The
  app scripts nothing; transformers reads a model's source only to switch its attention implementation
  after loading (`set_attn_implementation`), which the app never calls. Kept anyway, for the model
  family the embedder loads and the auto classes (`bert`, `auto`, `encoder_decoder`, ~1 MB), so a
  lookup of their source still works; left out: torch's 46 MB and the other model families' 44 MB.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SOURCE_KEPT_FAMILIES = ("bert", "auto", "encoder_decoder")


def keep_python_source(dest: str) -> bool:
    """False for the `.py` files (`dest`: the path inside the bundle) that only TorchScript would read."""
    dest = dest.replace("\\", "/")
    if not dest.endswith(".py"):
        return True
    if dest.startswith("torch/"):
        return False
    if dest.startswith("transformers/models/"):
        parts = dest.split("/")
        return len(parts) < 4 or parts[2] in SOURCE_KEPT_FAMILIES or parts[-1] == "__init__.py"
    return True


def keep(dest: str) -> bool:
    """Every rule of this module: False for a file the bundle leaves out."""
    return keep_python_source(dest)


def trim_tree(internal: Path) -> tuple[int, int]:
    """Delete from a built bundle's `_internal` folder what the spec leaves out: (files, bytes) removed."""
    count = size = 0
    for path in sorted(internal.rglob("*")):
        if path.is_file() and not path.is_symlink() and not keep(path.relative_to(internal).as_posix()):
            count, size = count + 1, size + path.stat().st_size
            path.unlink()
    return count, size


def main() -> int:
    parser = argparse.ArgumentParser(description="Apply the spec's trims to an already built bundle.")
    parser.add_argument("bundle", type=Path, help="the onedir bundle (build/dist/sensetree) or a copy")
    args = parser.parse_args()
    internal = args.bundle / "_internal"
    if not internal.is_dir():
        print(f"No _internal folder in {args.bundle}: pass a PyInstaller onedir bundle.", file=sys.stderr)
        return 2
    count, size = trim_tree(internal)
    print(f"removed {count} files, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
