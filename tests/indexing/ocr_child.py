"""Run as a script by test_ocr_process: an engine in its own process, so a test can kill it with SIGKILL
in the middle of OCR and measure its peak memory. Nothing here is product code.

    ocr_child.py drain HOME FOLDER      index FOLDER to the end; a line `{"read": n}` as each page's OCR
                                        begins, then `{"found": [paths]}` for each query in QUERIES
    ocr_child.py busy HOME FOLDER LATE PAGES
                                        index FOLDER on the background worker; once OCR has read PAGES
                                        pages and only the scan waits, write the file LATE and report, as
                                        one JSON line, how many pages OCR read before LATE was
                                        keyword-searchable, and the peak RSS
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

from engine.indexing import ocr
from tests.indexing.helpers import make_engine

BOUND_S = 240.0


def say(**fields) -> None:
    print(json.dumps(fields), flush=True)


def counting_pages() -> list[int]:
    """Every page OCR begins to read, announced on stdout as it begins."""
    begun: list[int] = []
    real = ocr.read_pdf_page

    def read(path: str, index: int, seconds: float = ocr.PAGE_SECONDS) -> str:
        begun.append(index)
        say(read=index)
        return real(path, index, seconds)

    ocr.read_pdf_page = read
    return begun


def drain(home: Path, folder: str, queries: list[str]) -> None:
    counting_pages()
    engine = make_engine(home)
    if folder not in engine.get_roots():
        engine.add_indexed_folder(folder)
    engine.parts.index.drain()
    for query in queries:
        say(query=query, found=[hit.path for hit in engine.semantic_search(query, limit=3)])
    engine.running.close()


def status_mb(field: str) -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    return 0.0


def rss_mb() -> float:
    return status_mb("VmRSS:")


def busy(home: Path, folder: str, late: Path, pages: int) -> None:
    """OCR of a long scan runs; a file written then must be keyword-searchable after a page or two."""
    begun = counting_pages()
    engine = make_engine(home, background=True)
    started_mb = rss_mb()
    engine.add_indexed_folder(folder)
    ocr_store = engine.parts.index.indexer.ocr
    # the scan's first pages read, and every other file's OCR (the big picture) done: only the scan waits
    until(lambda: len(begun) >= pages and ocr_store.waiting() == 1, "OCR to read its first pages")
    late.write_text("Gooseberry jam recipe from the late file.", encoding="utf-8")
    written_at, pages_then = time.monotonic(), len(begun)
    engine.reindex_path(str(late))
    until(
        lambda: any(h.path == str(late) for h in engine.semantic_search("gooseberry", limit=3)),
        "the late file",
    )
    searchable_s = time.monotonic() - written_at
    own = status_mb("VmHWM:")  # this image's own peak: ru_maxrss keeps the forking pytest's across exec
    stats = engine.indexing_stats()
    say(
        pages_meanwhile=len(begun) - pages_then,
        searchable_s=searchable_s,
        started_mb=started_mb,
        peak_mb=own,
        pages_read=len(begun),
        queued=stats.queued,
        ocr_waiting=ocr_store.waiting(),
    )
    os._exit(0)  # the rest of the 500 pages is not this test's business


def until(condition, what: str) -> None:
    """Wait for `condition` on the worker's own progress, checked every 20 ms, at most BOUND_S."""
    deadline = time.monotonic() + BOUND_S
    done = threading.Event()
    while not condition():
        if time.monotonic() > deadline:
            say(error=f"gave up waiting for {what}")
            os._exit(3)
        done.wait(0.02)


if __name__ == "__main__":
    mode, home_arg, folder_arg = sys.argv[1:4]
    if mode == "drain":
        drain(Path(home_arg), folder_arg, sys.argv[4:])
    else:
        busy(Path(home_arg), folder_arg, Path(sys.argv[4]), int(sys.argv[5]))
