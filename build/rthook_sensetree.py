"""PyInstaller runtime hook: the frozen app never reaches the network for model files, and Qt on Linux uses
a platform theme whose libraries are in the bundle.

Why: the embedding model ships inside the bundle; Hugging Face libraries would otherwise try the Hub
for metadata when a lookup misses, which is slow offline and a surprise online. The Linux bundle leaves
out Qt's GTK 3 theme and the GTK libraries only it needs (build/bundle_trim.py), so Qt is pointed at its
XDG desktop portal theme: the desktop's own file chooser through the portal where one runs (GNOME, KDE),
Qt's own dialog elsewhere. A person can still override any of these variables in their environment.
"""

import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
if sys.platform.startswith("linux"):
    os.environ.setdefault("QT_QPA_PLATFORMTHEME", "xdgdesktopportal")
