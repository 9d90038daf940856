"""PyInstaller runtime hook: the frozen app never reaches the network for model files, and Qt on Linux uses
a platform theme whose libraries are in the bundle.

Why: the embedding model ships inside the bundle; Hugging Face libraries would otherwise try the Hub
for metadata when a lookup misses, which is slow offline and a surprise online. The Linux bundle leaves
out Qt's GTK 3 theme and the GTK libraries only it needs (build/bundle_trim.py), so Qt is pointed at its
XDG desktop portal theme: the desktop's own file chooser through the portal where one runs (GNOME, KDE),
Qt's own dialog elsewhere. A person can still override these variables in their environment, except
USE_HUB_KERNELS: the bundle leaves out `kernels` (build/bundle_imports.py), and transformers >= 5 asks for it
in every from_pretrained unless USE_HUB_KERNELS says no, so "YES" could only break loading the model.
tests/packaging/test_frozen_import_path.py runs this file before loading the embedder the bundle's way.
"""

import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ["USE_HUB_KERNELS"] = "NO"
if sys.platform.startswith("linux"):
    os.environ.setdefault("QT_QPA_PLATFORMTHEME", "xdgdesktopportal")
