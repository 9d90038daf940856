"""What each Linux tray choice adds to the bundle: Qt's QSystemTrayIcon vs pystray's AppIndicator back-end.

How it is measured (docs/packaging.md records the figures and the choice):
- Qt: the tray lives in libQt6Widgets/libQt6Gui and talks StatusNotifierItem through libQt6DBus; the
  figure is the size of those of its libraries the bundle does NOT already carry for the window.
- pystray + AppIndicator: the shared libraries PyGObject's `_gi` extension and libayatana-appindicator3
  need (the `ldd` closure), less those the bundle already carries and those PyInstaller never bundles
  (glibc's), plus the GObject-introspection typelibs pystray's back-end loads and the `gi` package
  itself. GTK's data (themes, icons, schemas) that PyInstaller's gi hooks also collect is not counted,
  so this is a lower bound.

    python bench/tray_cost.py [--bundle build/dist/sensetree]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GLIBC = re.compile(r"^(libc|libm|libdl|libpthread|librt|libutil|ld-linux[-\w]*|linux-vdso|libresolv)\.so")
TYPELIBS = (
    "AyatanaAppIndicator3-0.1",
    "Gtk-3.0",
    "Gdk-3.0",
    "GdkPixbuf-2.0",
    "Pango-1.0",
    "cairo-1.0",
    "Atk-1.0",
    "HarfBuzz-0.0",
    "freetype2-2.0",
    "xlib-2.0",
    "GLib-2.0",
    "GObject-2.0",
    "Gio-2.0",
    "GModule-2.0",
)
TYPELIB_DIR = Path("/usr/lib/x86_64-linux-gnu/girepository-1.0")


def ldd_closure(paths: list[Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in paths:
        out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            match = re.match(r"\s*(\S+) => (/\S+)", line)
            if match:
                found[match.group(1)] = Path(match.group(2))
    return found


def bundled_names(bundle: Path) -> set[str]:
    return {p.name for p in (bundle / "_internal").rglob("*.so*")}


def system_gi() -> Path | None:
    done = subprocess.run(
        ["/usr/bin/python3", "-c", "import gi, os; print(os.path.dirname(gi.__file__))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bundle", type=Path, default=REPO / "build" / "dist" / "sensetree")
    args = parser.parse_args()
    have = bundled_names(args.bundle)
    qt_needs = [n for n in ("libQt6Widgets.so.6", "libQt6Gui.so.6", "libQt6DBus.so.6") if n not in have]
    print(
        f"Qt tray: adds {len(qt_needs)} libraries to this bundle "
        f"({', '.join(qt_needs) or 'none: already there'})"
    )
    gi = system_gi()
    indicator = Path("/lib/x86_64-linux-gnu/libayatana-appindicator3.so.1")
    if gi is None or not indicator.exists():
        print(
            "pystray AppIndicator: not measurable here (needs python3-gi and gir1.2-ayatanaappindicator3-0.1)"
        )
        return 1
    closure = ldd_closure([*gi.glob("_gi*.so"), indicator])
    closure.setdefault(indicator.name, indicator)
    extra = {name: path for name, path in closure.items() if name not in have and not GLIBC.match(name)}
    libs_mb = sum(p.resolve().stat().st_size for p in extra.values()) / 1e6
    typelibs = [
        TYPELIB_DIR / f"{name}.typelib" for name in TYPELIBS if (TYPELIB_DIR / f"{name}.typelib").exists()
    ]
    typelib_mb = sum(p.stat().st_size for p in typelibs) / 1e6
    gi_mb = sum(p.stat().st_size for p in gi.rglob("*") if p.is_file()) / 1e6
    biggest = sorted(extra.items(), key=lambda item: -item[1].resolve().stat().st_size)[:6]
    print(
        f"pystray AppIndicator: adds {len(extra)} libraries {libs_mb:.1f} MB + typelibs {typelib_mb:.1f} MB "
        f"+ gi {gi_mb:.1f} MB = {libs_mb + typelib_mb + gi_mb:.1f} MB (lower bound: GTK data not counted)"
    )
    print("  biggest: " + ", ".join(f"{n} {p.resolve().stat().st_size / 1e6:.1f} MB" for n, p in biggest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
