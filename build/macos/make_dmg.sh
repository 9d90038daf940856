#!/usr/bin/env bash
# Wrap the PyInstaller .app (build/dist/SenseTree.app, made by build/sensetree.spec on macOS) in a
# compressed .dmg with an /Applications link, using only hdiutil (part of macOS).
# Why unsigned by default: signing and notarising need an Apple Developer identity; set CODESIGN_ID
# to sign the .app (hardened runtime) before it is packed. Notarisation is left to the release owner.
# Usage: build/macos/make_dmg.sh [VERSION]   (run from the repository root, after PyInstaller)
set -euo pipefail

VERSION="${1:-0.1.0}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
APP="$ROOT/build/dist/SenseTree.app"
STAGE="$ROOT/build/work/dmg"
OUT="$ROOT/build/dist/SenseTree-$VERSION.dmg"

[ -d "$APP" ] || { echo "No app at $APP: run build/build.sh first." >&2; exit 1; }

if [ -n "${CODESIGN_ID:-}" ]; then
  codesign --force --deep --options runtime --sign "$CODESIGN_ID" "$APP"
fi

rm -rf "$STAGE" "$OUT"
mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
hdiutil create -volname "SenseTree $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$OUT" >/dev/null
echo "$OUT"
