"""Run as a script by test_hostile_files: index a folder, dying (os._exit, like the OOM killer) the moment
the indexer starts reading a file named `killer.txt`. Nothing here is product code; it injects the fault."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from engine.indexing import indexer as indexer_mod
from engine.indexing.extract import extract as real_extract
from tests.indexing.helpers import make_engine


def dying_extract(path: str, max_chars: int = 1_000_000):
    if os.path.basename(path) == "killer.txt":
        os._exit(137)
    return real_extract(path, max_chars=max_chars)


if __name__ == "__main__":
    home, folder = Path(sys.argv[1]), sys.argv[2]
    indexer_mod.extract = dying_extract
    engine = make_engine(home)
    engine.add_indexed_folder(folder)
    engine.parts.index.drain()
    engine.running.close()
