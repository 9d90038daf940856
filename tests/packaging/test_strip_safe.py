"""Stripping the bundle's shared libraries keeps only copies the loader can still map (build/strip_safe.py):
numpy's patchelf-repaired OpenBLAS and the DuckDB extension stay whole, ordinary libraries get smaller."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy
import pytest
import tokenizers

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build"))
from strip_safe import loadable, repair, strip_binaries, stripped_copy  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which("strip") is None or shutil.which("readelf") is None,
    reason="binutils (strip, readelf) are not installed",
)

NUMPY_LIBS = Path(numpy.__file__).parent.parent / "numpy.libs"


def _openblas() -> Path:
    found = sorted(NUMPY_LIBS.glob("libscipy_openblas*.so"))
    if not found:
        pytest.skip("this numpy has no vendored OpenBLAS")
    return found[0]


def test_a_patchelf_repaired_library_that_strip_would_break_is_kept_whole(tmp_path):
    original = _openblas()
    assert loadable(original)

    assert stripped_copy(original, tmp_path / "openblas.so") == original
    assert not (tmp_path / "openblas.so").exists()


def test_an_ordinary_extension_module_is_stripped_and_still_loads(tmp_path):
    original = next(Path(tokenizers.__file__).parent.glob("tokenizers*.so"))

    copy = stripped_copy(original, tmp_path / "tokenizers.so")

    assert copy == tmp_path / "tokenizers.so"
    assert loadable(copy) and copy.stat().st_size < original.stat().st_size


def test_the_duckdb_extension_is_never_stripped_because_its_footer_carries_its_metadata(tmp_path):
    import duckdb_extension_fts

    extension = next(Path(duckdb_extension_fts.__file__).parent.rglob("*.duckdb_extension"))

    assert stripped_copy(extension, tmp_path / "fts.duckdb_extension") == extension


def test_only_binaries_are_replaced_in_pyinstallers_lists(tmp_path):
    module = next(Path(tokenizers.__file__).parent.glob("tokenizers*.so"))
    entries = [
        ("tokenizers/tokenizers.so", str(module), "EXTENSION"),
        ("web/index.html", "/x/index.html", "DATA"),
    ]

    out = strip_binaries(entries, tmp_path)

    assert out[0][0] == "tokenizers/tokenizers.so" and Path(out[0][1]).is_relative_to(tmp_path)
    assert out[1] == entries[1]


def test_repair_puts_back_the_original_of_a_library_that_no_longer_loads(tmp_path):
    bundle, originals = tmp_path / "bundle", tmp_path / "site"
    original = _openblas()
    (originals / "numpy.libs").mkdir(parents=True)
    shutil.copy2(original, originals / "numpy.libs" / original.name)
    (bundle / "numpy.libs").mkdir(parents=True)
    broken = bundle / "numpy.libs" / original.name
    import subprocess

    subprocess.run(["strip", "-o", str(broken), str(original)], check=True)
    assert not loadable(broken)  # what PyInstaller's strip=True shipped

    assert repair(bundle, [originals]) == [f"numpy.libs/{original.name}"]
    assert loadable(broken)
