#!/usr/bin/env bash
# Build the PyInstaller bundles (onedir + portable onefile) with explicit work/dist folders.
# Why explicit: PyInstaller's default work folder is ./build, which holds this script and the spec.
# Usage: build/build.sh [PYTHON]   (from the repository root; PYTHON defaults to .venv/bin/python)
# SENSETREE_ONEFILE=0 skips the portable one-file executable.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${1:-$ROOT/.venv/bin/python}"
cd "$ROOT"
"$PY" -m PyInstaller --noconfirm --log-level WARN \
    --workpath "$ROOT/build/work" --distpath "$ROOT/build/dist" "$ROOT/build/sensetree.spec"
