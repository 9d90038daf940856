"""A file size in words (`12.4 MB`), for the notes extraction writes and the descriptors of name-only files.

Its own module because extraction runs in a second process too (extract_process.py): the descriptors'
module reaches DuckDB through the search's names, which that process must not load for a note.
"""

from __future__ import annotations


def human_size(size: int) -> str:
    """`12.4 MB`: decimal units, as file managers show them."""
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size:,} bytes" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1000
    return f"{size:,} bytes"
