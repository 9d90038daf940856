"""Where SenseTree keeps its data: one function, in a module light enough for every command's start.

It lives apart from `engine.config` (which builds the pydantic settings models, ~0.3 s of imports)
so that a command answered by the running instance (`sensetree search`, `status`) finds the
instance's socket file without loading them; `engine.config.data_dir` is this same function.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from engine import privacy

KEYWORDS_FILE = "keywords.duckdb"  # the keyword index's file in the data folder (the CLI peeks at it too)


def data_dir() -> Path:
    """Where SenseTree keeps its settings, databases, logs and trash (created on first use)."""
    override = os.environ.get("SENSETREE_HOME")
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir("SenseTree", False))
    if not path.is_dir():
        path.mkdir(mode=privacy.DIR_MODE, parents=True, exist_ok=True)
    return path
