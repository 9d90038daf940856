"""Strip the symbol tables of bundled shared libraries, keeping only copies the dynamic loader still maps.

Why not PyInstaller's `strip=True`: binutils' `strip` rewrites libraries that auditwheel repaired with
patchelf (`numpy.libs/`, `pillow.libs/`…) so that a LOAD segment's address and file offset no longer agree
modulo the page size, and glibc then refuses them ("ELF load command address/offset not page-aligned";
measured: the stripped bundle's numpy failed to import). So each file is stripped into a copy, the copy's
program headers are checked the way glibc's loader checks them, and the original is kept when the check
fails. Used by build/sensetree.spec on Linux (before COLLECT and the one-file EXE, so both carry the
stripped copies) and, as a repair, on an already stripped bundle (`python build/strip_safe.py --repair`).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

PAGE = 4096
# ELF files that carry a signature or metadata footer after the ELF data: stripping drops it (measured:
# DuckDB refused the stripped FTS extension, "The metadata at the end of the file is invalid").
NEVER_STRIP = (".duckdb_extension",)


def is_elf(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            return file.read(4) == b"\x7fELF"
    except OSError:
        return False


def loadable(path: Path) -> bool:
    """glibc's check on every PT_LOAD: (p_vaddr - p_offset) is a multiple of the page size."""
    out = subprocess.run(["readelf", "-lW", str(path)], capture_output=True, text=True, check=False).stdout
    loads = [line.split() for line in out.splitlines() if line.strip().startswith("LOAD")]
    if not loads:
        return False
    return all((int(fields[2], 16) - int(fields[1], 16)) % PAGE == 0 for fields in loads)


def stripped_copy(source: Path, target: Path) -> Path:
    """`target` holding `source` stripped when that copy still loads; otherwise `source` itself."""
    if source.name.endswith(NEVER_STRIP):
        return source
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["strip", "-o", str(target), str(source)], capture_output=True, check=False)
    if done.returncode == 0 and loadable(target) and target.stat().st_size < source.stat().st_size:
        return target
    target.unlink(missing_ok=True)
    return source


def strip_binaries(binaries: list, cache: Path) -> list:
    """PyInstaller's (dest, src, kind) entries with each ELF binary replaced by its safe stripped copy."""
    if shutil.which("strip") is None or shutil.which("readelf") is None:
        return binaries
    out = []
    for dest, src, kind in binaries:
        if kind in ("BINARY", "EXTENSION") and is_elf(Path(src)):
            src = str(stripped_copy(Path(src), cache / dest))
        out.append((dest, src, kind))
    return out


def repair(bundle: Path, originals: list[Path]) -> list[str]:
    """Put back the unstripped original of every ELF file in `bundle` that no longer loads; the originals
    are found by their path inside the bundle, under each of `originals` (site-packages, the lib dir)."""
    restored = []
    for path in bundle.rglob("*"):
        if path.is_symlink() or not path.is_file() or not is_elf(path):
            continue
        if loadable(path) and not path.name.endswith(NEVER_STRIP):
            continue
        relative = path.relative_to(bundle)
        for root in originals:
            candidate = root / relative
            if candidate.is_file():
                shutil.copy2(candidate, path)
                restored.append(str(relative))
                break
        else:
            raise FileNotFoundError(f"no original for {relative}")
    return restored


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repair", type=Path, required=True, help="the bundle's _internal folder")
    parser.add_argument("originals", type=Path, nargs="+", help="where the unstripped files are")
    args = parser.parse_args()
    restored = repair(args.repair, args.originals)
    print(f"restored {len(restored)} unstripped file(s): " + ", ".join(restored))
    return 0


if __name__ == "__main__":
    sys.exit(main())
