"""PyStemmer against the FTS extension's `stem`, on every distinct word of this machine's real text.

The keyword index stems words in Python (engine/retrieval/keyword/point_tokens.Stems: PyStemmer, the
binding of Snowball's libstemmer, whose Porter stemmer the extension compiles in) where it asked DuckDB
before, and the bulk writes still stem in SQL: both must give the same stem for every word, or a term
written by one would not be found by the other. This reads bench/real_text.py's sources (the standard
library, man pages, /usr/share/doc, the licences), splits them as the index does (tokenize.py), stems
every distinct word both ways and prints how many differ (the target is 0) and the first few.

    python bench/stems_check.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_text import read_text, source_files

from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.point_tokens import Stems


def vocabulary() -> list[str]:
    """Every distinct word of the real text, split and folded as the index does (Python's `lower`, which
    for the non-ASCII words is not DuckDB's: any string is a fair test of the stemmers)."""
    words: set[str] = set()
    for path in source_files():
        words.update(tokenize.normalized_words(read_text(path).lower()))
    return sorted(words)


def main() -> None:
    words = vocabulary()
    con = duckdb.connect()
    tokenize.install(con)
    words_table = pa.table({"w": pa.array(words, pa.string())})  # noqa: F841 (read by name)
    began = time.process_time()
    theirs = dict(con.execute(f"SELECT w, stem(w, '{tokenize.STEMMER}') FROM words_table").fetchall())
    duckdb_s = time.process_time() - began
    began = time.process_time()
    ours = Stems().of(set(words))
    python_s = time.process_time() - began
    differ = [(w, theirs[w], ours[w]) for w in words if theirs[w] != ours[w]]
    print(
        f"{len(words):,} distinct words ({sum(not w.isascii() for w in words):,} not ASCII); "
        f"DuckDB stem {duckdb_s:.2f} CPU-s, PyStemmer {python_s:.2f} CPU-s; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    for word, duck, py in differ[:20]:
        print(f"  {word!r}: DuckDB {duck!r}, PyStemmer {py!r}")
    met = "met" if not differ else "MISSED"
    print(f"SUMMARY stems that differ: {len(differ)} of {len(words):,} (target 0: {met})")


if __name__ == "__main__":
    main()
