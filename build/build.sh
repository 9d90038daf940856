#!/usr/bin/env bash
# Build the PyInstaller bundles (onedir + portable onefile) with explicit work/dist folders.
# Why explicit: PyInstaller's default work folder is ./build, which holds this script and the spec.
# Usage: build/build.sh [PYTHON]   (from the repository root; PYTHON defaults to .venv/bin/python)
# SENSETREE_ONEFILE=0 skips the portable one-file executable; SENSETREE_WITHOUT_WINDOW=1 builds the
# serve-mode bundle without Qt (the Windows/macOS size estimate) and SENSETREE_BUILD_DIR moves work/dist
# under another folder so it does not replace the real bundle.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${1:-$ROOT/.venv/bin/python}"
cd "$ROOT"
OUT="${SENSETREE_BUILD_DIR:-$ROOT/build}"
"$PY" -m PyInstaller --noconfirm --log-level WARN \
    --workpath "$OUT/work" --distpath "$OUT/dist" "$ROOT/build/sensetree.spec"
