"""Files the reading process reads before it is asked for them, at a folder's first index.

Why: at a first index the reading process (extract_process.py) starts with start-up, and after its own
imports it waited for the first request, which comes only once the stores are open, start-up's repair has
run and the scan has queued the files: about half a second in which the second core had nothing to do,
then a keyword phase in which the indexer's process was the bound (bench/recoll.py, docs/search-latency.md
"Against Recoll, session 7"). Given the roots, it walks them as the scan will (the same `crawl`, so the
same order and the same spelling of each path) and reads the files it would be asked for, keeping the
answers until they are asked for: whenever no request waits, before and during the keyword phase.

What stays the same: an answer is the same `extract(path, max_chars)` (its `Extracted` or the error it
raised), given only for the `max_chars` it was read with, and only while the file still has the stamp (size,
mtime in ns, inode, device) it had before and after it was read (file_hash.stamp, the rule the read-ahead
already keeps); otherwise the file is read again when asked. The read-ahead stamps the file in its own
process before and after as it always did.

What it costs: at most HELD_FILES answers (and HELD_CHARS characters of text) wait at a time; a file over
the size limit, or of a format read in the indexer's process, is never read here; a file asked for no
more (a copy of one already indexed is not extracted) is let go once a later file is asked for. A parser
that takes the reading process down while it reads ahead is charged to the file being waited for, which
is retried later like any file whose reading process stopped (one of its attempts, extract_process.py);
the reading process started next is given no roots, so the file that did it is then read, and charged, alone.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.indexing.crawl import crawl
from engine.indexing.extract import Extracted, extract, parsed_in_python
from engine.indexing.file_hash import stamp

log = logging.getLogger(__name__)

HELD_FILES = 256  # answers kept waiting at most (the read-ahead asks ~64 files ahead of the indexer)
HELD_CHARS = 32_000_000  # …and characters of text in them


@dataclass(frozen=True)
class ReadFirst:
    """What the reading process reads before it is asked: the roots a first index scans, and the limits
    the indexer reads with (a file over `max_file_bytes` is not extracted; see indexer.py)."""

    roots: tuple[str, ...]
    max_chars: int
    max_file_bytes: int


Answer = tuple[str, object]  # ("ok", Extracted) or ("error", the exception), as the reading process sends


def read_answer(path: str, max_chars: int, read: Callable[..., Extracted] = extract) -> Answer:
    """`read(path, max_chars=…)` as the reading process sends it, whether asked for now or read ahead."""
    try:
        return ("ok", read(path, max_chars=max_chars))
    except Exception as exc:  # noqa: BLE001 - sent back as it was raised, as the thread would have
        return ("error", exc)


@dataclass
class _Held:
    index: int  # its place in the walk
    stamp: tuple[int, int, int, int]
    answer: Answer
    chars: int


class FirstReads:
    """The reading process's answers read before they were asked for (module docstring): `step` reads
    the next file while `wanted`, `take` hands an answer over once.

    The indexer asks in the walk's order, less the files it reads itself (plain text, and PDFs it reads in
    its own process while the reading process has enough waiting) or needs not read (a copy of a file
    already indexed): so a file asked for means every file walked before it will not be, and is let go;
    and a file asked for before the walk reached it means the walk skips on past it."""

    def __init__(self, plan: ReadFirst, read: Callable[..., Extracted] = extract):
        self._plan, self._read = plan, read
        self._paths = enumerate(self._walk())
        self._held: dict[str, _Held] = {}  # in the walk's order
        self._unread: dict[str, int] = {}  # walked, not held (changed while read, gone): place in the walk
        self._skip_to: str | None = None  # asked for before the walk reached it
        self._chars = 0
        self._done = False

    def wanted(self) -> bool:
        """More files to read, and room to keep what is read."""
        return not self._done and len(self._held) < HELD_FILES and self._chars < HELD_CHARS

    def step(self) -> None:
        """Walk to the next file and read it (one call, at most one file)."""
        walked = next(self._paths, None)
        if walked is None:
            self._done = True
            return
        index, path = walked
        if self._skip_to is not None:  # the indexer is past this file
            self._skip_to = None if path == self._skip_to else self._skip_to
            return
        self._unread[path] = index
        try:
            before = os.stat(path)
        except OSError:
            return  # gone since the walk: the indexer will not ask, or reads it when it does
        answer = read_answer(path, self._plan.max_chars, self._read)
        try:
            after = os.stat(path)
        except OSError:
            return
        if stamp(before) != stamp(after):
            return  # changed while it was read: read it when asked
        extracted = answer[1]
        chars = len(extracted.text) if isinstance(extracted, Extracted) else 0
        del self._unread[path]
        self._held[path] = _Held(index, stamp(after), answer, chars)
        self._chars += chars

    def take(self, path: str, max_chars: int) -> Answer | None:
        """The answer read ahead for `path`, if it was read with `max_chars` and the file is unchanged since;
        None: read it now."""
        held = self._held.pop(path, None)
        unread = self._unread.pop(path, None)
        if held is None and unread is None:  # not reached yet: everything held comes before it
            self._skip_to = path
        self._let_go_before(held.index if held is not None else unread)
        if held is None:
            return None
        self._chars -= held.chars
        if max_chars != self._plan.max_chars:
            return None
        try:
            unchanged = stamp(os.stat(path)) == held.stamp
        except OSError:
            unchanged = False
        return held.answer if unchanged else None

    def _let_go_before(self, index: int | None) -> None:
        """Forget what was walked before `index` (None: everything walked): it will not be asked for."""
        while self._held:
            first = next(iter(self._held.values()))
            if index is not None and first.index >= index:
                break
            self._chars -= self._held.pop(next(iter(self._held))).chars
        while self._unread and (index is None or next(iter(self._unread.values())) < index):
            del self._unread[next(iter(self._unread))]

    def _walk(self) -> Iterator[str]:
        for root in self._plan.roots:
            try:
                for entry in crawl(root):
                    if entry.size <= self._plan.max_file_bytes and parsed_in_python(entry.path):
                        yield entry.path
            except Exception:  # noqa: BLE001 - a root gone or unreadable: the scan says why, not this
                log.debug("reading %s ahead stopped", root, exc_info=True)
