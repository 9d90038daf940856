#!/usr/bin/env bash
# Refresh requirements/lock.txt (`make lock`, docs/packaging.md): resolve every Python package again at
# its newest version inside pyproject.toml's ranges, with hashes, then accept the new lock only if a
# fresh venv installed from it passes the frozen import gate (tests/packaging/test_frozen_import_path.py)
# and the package smoke test (`make package-test`, the .deb built from that venv). A failure leaves
# requirements/lock.txt as it was; the candidate stays in build/work/lock/ for a look.
#
# Why pip-tools and not uv: `make` installs torch==2.13.0 first from a local CPU wheel that pip finds
# through pip's own configuration (find-links); uv does not read it and would resolve torch from PyPI,
# whose Linux torch pulls the multi-GB CUDA libraries into the lock. pip-compile resolves with pip, so it
# sees the same CPU wheel the install uses, and its --generate-hashes output is what `pip install
# --require-hashes` reads.
# Usage: build/lock.sh [pip-compile options]   (default --upgrade; e.g. --upgrade-package transformers)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PY="${PY:-python3}"
WORK="$ROOT/build/work/lock"
TOOLS="$ROOT/build/work/lock-venv"
CANDIDATE="$WORK/lock.txt"
PIP_TOOLS="pip-tools==7.6.2"

[ -x "$TOOLS/bin/pip-compile" ] || { "$PY" -m venv "$TOOLS" && "$TOOLS/bin/pip" install -q "$PIP_TOOLS"; }
mkdir -p "$WORK"
cp requirements/lock.txt "$CANDIDATE" 2>/dev/null || true
[ $# -gt 0 ] || set -- --upgrade

echo "== lock: resolving (pip-compile) into $CANDIDATE"
compile_lock() {
    # torch is resolved (requirements/lock.in pins the version the Makefile installs) but left out of the
    # lock: --unsafe-package replaces pip-tools' default list, so setuptools is pinned with the rest.
    CUSTOM_COMPILE_COMMAND="make lock" "$TOOLS/bin/pip-compile" -q --generate-hashes --strip-extras \
        --unsafe-package torch --no-emit-index-url --no-emit-find-links \
        --extra app --extra test --extra package "$@" -o "$CANDIDATE" pyproject.toml requirements/lock.in
}
compile_lock "$@"
if grep -qiE '^(nvidia-|triton==|torch==)' "$CANDIDATE"; then
    echo "lock: the candidate holds a CUDA build's packages or torch itself; is the CPU torch wheel reachable?" >&2
    exit 1
fi

echo "== lock: a fresh venv from the candidate, the frozen import gate, then make package-test"
rm -rf "$WORK/venv"
make install VENV="$WORK/venv" LOCK="$CANDIDATE"
"$WORK/venv/bin/python" -m pytest -q -p no:cacheprovider tests/packaging/test_frozen_import_path.py
make package-test VENV="$WORK/venv" LOCK="$CANDIDATE"

cp "$CANDIDATE" requirements/lock.txt
echo "== lock: accepted. Commit requirements/lock.txt (git diff requirements/lock.txt shows what moved)."
