"""Files the hooks collect into the bundle that the frozen app never reads, left out by build/sensetree.spec.

Why a module of its own: each rule here was measured on a built bundle (docs/packaging.md, "What is in
the bundle"), and the same predicate must serve both the spec (on PyInstaller's TOC) and a quick
re-measurement on an already built tree (`python build/bundle_trim.py DIST_DIR`, which deletes what the
spec would leave out and prints how much), so a trim can be tried in minutes instead of a 15-50 minute
rebuild, and the rebuilt bundle matches what was tried. `tests/packaging/test_bundle_trim.py` pins it.

The rules:
- torch's Python sources shipped next to their bytecode. PyInstaller's torch hook collects every torch
  module both as bytecode (in the PYZ archive, what is imported) and as a `.py` file (module_collection_mode
  "pyz+py"), for TorchScript's `inspect.getsource` on scripted functions, which the app never uses.
  Kept: torch's config modules and the three modules that declare `@torch.jit._overload` functions,
  which read their own source as they are imported (below). Left out:
  the other 46 MB (measured: index, search and the window on the bundle without them). transformers'
  sources all stay: its lazy module builds its table of contents by reading every model family's files
  for `__all__` (`define_import_structure`), so without them `import transformers` fails (measured).
- pyarrow's development copies of `libarrow_python` (`libarrow_python.so`, `….so.2600.1.0`, and the
  same for `libarrow_python_parquet_encryption`): byte-identical to the `….so.2600` that every pyarrow
  module names in DT_NEEDED (measured with readelf); the other names serve C++ extensions built against
  pyarrow. 3.5 MB.
- Qt's GTK 3 platform theme (`libqgtk3.so`) and the 22 libraries only it needs (GTK, GDK, ATK, cairo,
  pango, harfbuzz…, 16.5 MB), found by walking DT_NEEDED with and without it (`orphans`). Bundling the
  build machine's GTK next to the person's own GTK themes and modules is fragile anyway; the runtime hook
  selects Qt's XDG desktop portal theme instead (bundled, no GTK), whose file chooser is the desktop's
  own dialog through the portal where one runs, and Qt's own dialog elsewhere.
- Qt's own translations (`PySide6/Qt/translations/*.qm`, 9.9 MB): Qt loads a catalog only into a
  `QTranslator` the application installs, and neither SenseTree nor pywebview installs one (the folder
  picker and message boxes are in English with or without them). Chromium's own strings are the
  `qtwebengine_locales` packs (build/bundle_plan.py). Should the app ever translate Qt's dialogs, this
  rule must go with it.
- Qt's QML debugging plugins (`plugins/qmltooling`, 1.4 MB): the window has no QML.
- Pillow's AVIF codec (`PIL/_avif…so` and the `libavif` it alone needs, 5 MB): Pillow imports it in a
  `try` and reports AVIF unsupported without it; SenseTree reads no images (Pillow is there because
  python-pptx imports it), so only opening an AVIF image with Pillow would notice.
- Qt plugins for what a desktop window never does (`QT_UNUSED_PLUGINS`), and the libraries only they
  need: printing (`printsupport`, the CUPS back-end, with libcups, GnuTLS, Avahi and Kerberos behind it:
  neither the page nor pywebview prints), the platforms and input plugins of embedded devices without a
  window system (EGLFS, LinuxFB, VNC, Vulkan KHR display, evdev/TUIO input, Qt's own virtual keyboard)
  and geolocation providers (the page never asks for a location; the `position` plugins are loaded only
  for `navigator.geolocation`). Desktops run xcb or wayland, both kept, as are offscreen and minimal.
- Python bindings nothing imports (`UNUSED_BINDINGS`): PySide6's QtQml, QtQuick, QtQuickWidgets and
  QtPositioning modules (their Qt libraries stay: Qt WebEngine links them) and lxml's `objectify`
  (python-docx, python-pptx and openpyxl use `lxml.etree`); measured from `sys.modules` after every
  document format was read, the engine built, the model loaded and the window's modules imported.
- The bytecode of transformers' model families other than those loading BERT touches (`keep_in_archive`:
  the PYZ archive only). Their `.py` files stay (the lazy module reads them), and PyInstaller's importer
  falls back to the bundled source for a module the archive lacks, so a configured model of another family
  still loads, compiling its modules at that start instead of reading them precompiled. Kept: the
  families `AutoTokenizer`/`AutoModel` import for BERT (`align` comes first in the tokenizer mapping,
  `auto` imports `encoder_decoder`), measured from `sys.modules` after loading the embedder.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

GTK_THEME_PLUGIN = "PySide6/Qt/plugins/platformthemes/libqgtk3.so"
QT_TRANSLATIONS = re.compile(r"^PySide6/Qt/translations/[^/]+\.qm$")
QML_DEBUGGING = "PySide6/Qt/plugins/qmltooling/"
QT_UNUSED_PLUGINS = (
    "PySide6/Qt/plugins/printsupport/",
    "PySide6/Qt/plugins/egldeviceintegrations/",
    "PySide6/Qt/plugins/generic/",
    "PySide6/Qt/plugins/position/",
    "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
    *(
        f"PySide6/Qt/plugins/platforms/lib{name}.so"
        for name in ("qeglfs", "qlinuxfb", "qminimalegl", "qvkkhrdisplay", "qvnc")
    ),
)
UNUSED_BINDINGS = re.compile(
    r"^(PySide6/Qt(Qml|Quick|QuickWidgets|Positioning)\.abi3\.so|lxml/objectify\.[^/]+\.so)$"
)
PILLOW_AVIF = re.compile(r"^(PIL/_avif\.[^/]+\.so|(pillow\.libs/)?libavif-[0-9a-f]+\.so[.0-9]*)$")
# transformers' model families whose modules BERT's loading imports (measured: sys.modules after
# AutoTokenizer/AutoModel/AutoModelForSequenceClassification.from_pretrained on the bundled model).
ARCHIVE_FAMILIES = frozenset({"align", "auto", "bert", "encoder_decoder"})
PYARROW_COPIES = re.compile(r"^pyarrow/libarrow_python(_parquet_encryption)?\.so(\.\d+\.\d+\.\d+)?$")

# torch's config modules (`torch/_dynamo/config.py`, `torch/distributed/config.py`…) call
# `install_config_module`, which reads the module's own source for its "compile_ignored" comments as the
# module is imported: without the .py, `import torch.distributed` fails ("could not get source code").
TORCH_SOURCE_READ = frozenset({"config.py", "_config.py"})
# The modules that declare `@torch.jit._overload` functions read their source at import too, and warn
# ("Unable to retrieve source for @torch.jit._overload function") without it: 26 warnings in the log on
# every start, measured on the bundle without them.
TORCH_OVERLOAD_MODULES = frozenset(
    {"torch/functional.py", "torch/nn/functional.py", "torch/nn/modules/rnn.py"}
)


def keep_python_source(dest: str) -> bool:
    """False for the `.py` files (`dest`: the path inside the bundle) that only TorchScript would read."""
    dest = dest.replace("\\", "/")
    if not dest.endswith(".py") or not dest.startswith("torch/"):
        return True
    name = dest.rsplit("/", 1)[-1]
    return name in TORCH_SOURCE_READ or name.startswith("config_") or dest in TORCH_OVERLOAD_MODULES


def keep(dest: str) -> bool:
    """The per-file rules: False for a file the bundle leaves out (`orphans` finds the libraries that
    only a left-out file needed)."""
    dest = dest.replace("\\", "/")
    if dest == GTK_THEME_PLUGIN or dest.startswith((QML_DEBUGGING, *QT_UNUSED_PLUGINS)):
        return False
    return (
        keep_python_source(dest)
        and not PYARROW_COPIES.match(dest)
        and not QT_TRANSLATIONS.match(dest)
        and not PILLOW_AVIF.match(dest)
        and not UNUSED_BINDINGS.match(dest)
    )


def keep_in_archive(module: str) -> bool:
    """False for a module whose bytecode the PYZ archive leaves out (its source stays in the bundle):
    transformers' model families other than `ARCHIVE_FAMILIES`."""
    parts = module.split(".")
    return not (
        len(parts) > 2 and parts[:2] == ["transformers", "models"] and parts[2] not in ARCHIVE_FAMILIES
    )


def orphans(binaries: Iterable[tuple[str, str]], needed: Callable[[str], set[str]]) -> set[str]:
    """The top-level libraries (`dest` with no folder) that only left-out files need, directly or
    through each other. `binaries` holds (dest, source path) of everything collected; `needed(source)`
    its DT_NEEDED names. A library something kept needs is never an orphan, and neither is one nothing
    names at all (it may be opened with dlopen: NSS's modules, what ctypes loads)."""
    entries = list(binaries)
    top = {dest: src for dest, src in entries if "/" not in dest.replace("\\", "/")}

    def reached(roots: list[str]) -> set[str]:
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            for name in needed(todo.pop()):
                if name in top and name not in seen:
                    seen.add(name)
                    todo.append(top[name])
        return seen

    left_out = [src for dest, src in entries if not keep(dest)]
    kept = [src for dest, src in entries if keep(dest) and dest not in top]
    return reached(left_out) - reached(kept)


def elf_needed(path: str) -> set[str]:
    """The DT_NEEDED names of an ELF file (readelf from binutils); none for anything else."""
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=False).stdout
    return {line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "(NEEDED)" in line}


def trim_tree(internal: Path) -> tuple[int, int]:
    """Delete from a built bundle's `_internal` folder what the spec leaves out: (files, bytes) removed."""
    files = {
        p.relative_to(internal).as_posix(): p
        for p in internal.rglob("*")
        if p.is_file() and not p.is_symlink()
    }
    elves = [(dest, str(path)) for dest, path in files.items() if _is_elf(path)]
    unneeded = orphans(elves, elf_needed)
    count = size = 0
    for dest, path in sorted(files.items()):
        if not keep(dest) or dest in unneeded:
            count, size = count + 1, size + path.stat().st_size
            path.unlink()
    return count, size


def _is_elf(path: Path) -> bool:
    with open(path, "rb") as file:
        return file.read(4) == b"\x7fELF"


def main() -> int:
    parser = argparse.ArgumentParser(description="Apply the spec's trims to an already built bundle.")
    parser.add_argument("bundle", type=Path, help="the onedir bundle (build/dist/sensetree) or a copy")
    args = parser.parse_args()
    internal = args.bundle / "_internal"
    if not internal.is_dir():
        print(f"No _internal folder in {args.bundle}: pass a PyInstaller onedir bundle.", file=sys.stderr)
        return 2
    count, size = trim_tree(internal)
    print(f"removed {count} files, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
