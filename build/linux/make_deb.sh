#!/usr/bin/env bash
# Wrap the PyInstaller onedir bundle (build/dist/sensetree) in a .deb with dpkg-deb:
#   /opt/sensetree/...                         the bundle
#   /usr/bin/sensetree                         a launcher script
#   /usr/share/applications/sensetree.desktop  the menu entry
#   /usr/share/icons/hicolor/scalable/apps/sensetree.svg
# Why a script and not a tool: dpkg-deb is on every Debian/Ubuntu machine and needs nothing else.
# Usage: build/linux/make_deb.sh [VERSION]   (run from the repository root, after PyInstaller)
set -euo pipefail

VERSION="${1:-0.1.0}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUNDLE="$ROOT/build/dist/sensetree"
STAGE="$ROOT/build/work/deb/sensetree_${VERSION}_amd64"
OUT="$ROOT/build/dist/sensetree_${VERSION}_amd64.deb"

[ -x "$BUNDLE/sensetree" ] || { echo "No bundle at $BUNDLE: run PyInstaller first (make package)." >&2; exit 1; }

rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
         "$STAGE/usr/share/icons/hicolor/scalable/apps"
cp -a "$BUNDLE" "$STAGE/opt/sensetree"
cp "$ROOT/web/img/logo.svg" "$STAGE/usr/share/icons/hicolor/scalable/apps/sensetree.svg"

cat > "$STAGE/usr/bin/sensetree" <<'LAUNCHER'
#!/bin/sh
exec /opt/sensetree/sensetree "$@"
LAUNCHER
chmod 0755 "$STAGE/usr/bin/sensetree"

cat > "$STAGE/usr/share/applications/sensetree.desktop" <<'DESKTOP'
[Desktop Entry]
Type=Application
Name=SenseTree
Comment=Search and reorganise your folders by meaning
Exec=/usr/bin/sensetree
Icon=sensetree
Terminal=false
Categories=Utility;FileTools;
StartupWMClass=SenseTree
DESKTOP

SIZE_KB="$(du -sk "$STAGE" | cut -f1)"
cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: sensetree
Version: $VERSION
Section: utils
Priority: optional
Architecture: amd64
Maintainer: SenseTree <maintainers@sensetree.invalid>
Installed-Size: $SIZE_KB
Depends: libc6 (>= 2.28), libgl1, libegl1, libxkbcommon-x11-0, libxcb-cursor0, libnss3, libasound2 | libasound2t64, tesseract-ocr, tesseract-ocr-eng
Description: Local-first search and reorganisation of your folders by meaning
 SenseTree indexes folders you choose, searches them by keyword and meaning,
 answers questions with citations, and reorganises files in undoable steps.
 Everything runs on this computer; the embedding model ships inside the package.
CONTROL

# Files must not be group/world writable, whatever the umask of the build.
chmod -R u+rwX,go+rX,go-w "$STAGE"
# xz: every dpkg since Debian 6 / Ubuntu 10.04 reads it (Ubuntu's own packages use it or zstd), and it is
# the smallest download (measured in docs/packaging.md); DEB_COMPRESSION="-Zgzip -z6" packs faster for tests.
# shellcheck disable=SC2086
dpkg-deb --root-owner-group ${DEB_COMPRESSION:--Zxz -z6} --build "$STAGE" "$OUT" >/dev/null
echo "$OUT"
