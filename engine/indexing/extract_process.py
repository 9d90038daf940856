"""Extraction of the formats parsed in Python (PDF, DOCX, HTML, the office and e-book formats) in a second
process, so that the keyword phase uses the second core.

Why: those parsers (pypdf, python-docx, BeautifulSoup…) are pure Python and hold the interpreter while
they work, so the read-ahead thread that extracts them (read_ahead.py) took turns with the indexer's own
thread instead of running beside it: on 2,000 mixed documents the keyword phase used one core and
Recoll's indexer two (bench/recoll.py, docs/search-latency.md "Against Recoll, session 6"). A child
process has an interpreter of its own; the read-ahead thread waits for its answer without holding ours.

What stays the same: the child runs the very `extract(path, max_chars)` the indexer would have run, with
the same guards (the zip directory checked before any parser inflates it, inflation capped per member,
the text budget), and its answer is the same `Extracted` or the same `ExtractionError` (its reason). The
read-ahead still stamps the file before and after, and the indexer still compares that stamp with the
file's own at the moment of use. Plain text and Markdown stay on the read-ahead thread (reading them is
mostly I/O and costs less than the round trip); so does everything when the process may not run.

What is better: a parser that crashes the interpreter or is killed for its memory takes the child down,
not SenseTree; the file is retried later like any file whose reading failed unexpectedly (and failed
after the queue's attempts), and the next file starts a new child.

When it runs: only with at least two CPUs this process may use (on one core it would only add the round
trips), not in a frozen app (its executable is the app, not a Python), and only while the keyword phase
has such files to read: `start()` at a batch that holds one, `stop()` when the keyword phase has nothing
due, so an idle SenseTree holds no second process and its memory is what it was. Before a first index it
starts with start-up and is given the roots, whose files it reads before it is asked (first_reads.py).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import IO, TYPE_CHECKING, cast

from engine.free_cores import usable_cores
from engine.indexing.extract import Extracted, extract, parsed_in_python

if TYPE_CHECKING:
    from engine.indexing.first_reads import ReadFirst

log = logging.getLogger(__name__)

BACKLOG = 8  # files waiting for the child at most: past that, the caller reads the next one itself
# …and for a child that reads first (first_reads.py): it answers most from what it read ahead, and the
# files the caller read itself cost the indexer's process, the bound (docs/search-latency.md, session 7)
FIRST_READS_BACKLOG = 64
STOP_WAIT_S = 2.0  # how long a stopping child may take to leave before it is killed
CHILD = (
    "import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
    "from engine.indexing.extract_process import serve; serve()"
)


class ReaderStopped(RuntimeError):
    """The child stopped while it read this file (a crash, or killed for its memory): the indexer retries
    the file later (its attempts counted), as it does any file whose reading failed unexpectedly."""


class ReadHere(Exception):
    """The child did not read this file (its answer could not travel, or it stopped before this file):
    the caller reads it in this process, as without a child."""


def second_process_helps() -> bool:
    return usable_cores() >= 2 and not getattr(sys, "frozen", False)


class ExtractionProcess:
    """`extract(path, max_chars)` that reads the Python-parsed formats in a child process (module
    docstring), and `submit` for a caller that has other files to read meanwhile (the read-ahead). The
    child reads the requests in the order they were sent; any thread may call."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = second_process_helps() if enabled is None else enabled
        self._life = threading.Lock()  # start, stop, and a request's place in the order
        self._child: _Child | None = None

    @property
    def pid(self) -> int | None:
        """The child's process id while one runs (logs, tests)."""
        child = self._child
        return child.process.pid if child is not None and child.alive() else None

    def handles(self, path: str) -> bool:
        return self.enabled and parsed_in_python(path)

    def start(self, first: ReadFirst | None = None) -> None:
        """Start the child now (its imports run while this process does other work); idempotent. `first`:
        the roots whose files it reads before it is asked for them (first_reads.py; a first index)."""
        if self.enabled:
            with self._life:
                child = self._running()
                if child is not None and first is not None:
                    child.read_first(first)

    def stop(self) -> None:
        """Let the child leave (the next file it should read starts a new one); returns once it is gone."""
        with self._life:
            child, self._child = self._child, None
            if child is not None:
                child.end()

    def submit(self, path: str, max_chars: int) -> Future[Extracted] | None:
        """The child's answer for `path`, to come; None where the child does not read it (a plain-text
        format, one core, a child that could not start, or one with BACKLOG files waiting,
        FIRST_READS_BACKLOG for one that reads first): the caller reads it itself. That last case shares
        the work: PDFs alone kept the child busy while the indexer's thread waited for them a third of its
        time (py-spy, 2,000 mixed documents)."""
        if not self.handles(path):
            return None
        with self._life:
            child = self._running()
            if child is None or child.backlog() >= child.room:
                return None
            return child.ask(path, max_chars)

    def extract(self, path: str, max_chars: int, here: Callable[..., Extracted] = extract) -> Extracted:
        """The file's `Extracted`, read by the child where it reads that format, else `here`."""
        answer = self.submit(path, max_chars)
        if answer is not None:
            try:
                return answer.result()
            except ReadHere:
                pass
        return here(path, max_chars=max_chars)

    def _running(self) -> _Child | None:
        if self._child is not None and self._child.alive():
            return self._child
        if self._child is not None:
            self._child.end()
        try:
            self._child = _Child()
        except OSError as exc:
            log.warning("extraction stays in this process: the reading process did not start (%s)", exc)
            self.enabled, self._child = False, None
        return self._child


class _Child:
    """One child process, and the thread that hands its answers to the requests, in order."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, json.dumps(sys.path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C in the terminal is for SenseTree, which stops it
        )
        self._waiting: deque[Future[Extracted]] = deque()
        self.room = BACKLOG  # files that may wait for it
        self._lock = threading.Lock()
        self._gone = False
        self._answers = threading.Thread(target=self._hand_out, name="index-extraction", daemon=True)
        self._answers.start()

    def backlog(self) -> int:
        """Files sent and not answered yet."""
        return len(self._waiting)

    def alive(self) -> bool:
        return self.process.poll() is None and self._answers.is_alive()

    def read_first(self, plan: ReadFirst) -> None:
        """Have the child read these roots' files before it is asked (it answers nothing to this)."""
        assert self.process.stdin is not None
        self.room = FIRST_READS_BACKLOG
        with contextlib.suppress(OSError, ValueError):  # gone: the next request says so
            pickle.dump(plan, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.process.stdin.flush()

    def ask(self, path: str, max_chars: int) -> Future[Extracted]:
        answer: Future[Extracted] = Future()
        answer.set_running_or_notify_cancel()
        assert self.process.stdin is not None
        with self._lock:
            if self._gone:  # stopped after `alive()` said otherwise: nobody would answer
                answer.set_exception(ReadHere())
                return answer
            self._waiting.append(answer)
        try:
            pickle.dump((path, max_chars), self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.process.stdin.flush()
        except (OSError, ValueError):  # the child is gone: its reader thread fails what waits
            pass
        return answer

    def _hand_out(self) -> None:
        assert self.process.stdout is not None
        while True:
            try:
                kind, value = pickle.load(self.process.stdout)
            except (OSError, ValueError, EOFError, pickle.UnpicklingError):
                break
            with self._lock:
                answer = self._waiting.popleft()
            if kind == "ok":
                answer.set_result(value)
            else:
                answer.set_exception(value if kind == "error" else ReadHere())
        code = self.process.wait()
        with self._lock:
            self._gone = True
            waiting, self._waiting = list(self._waiting), deque()
        for n, answer in enumerate(waiting):  # the first was being read when the child stopped
            stopped = ReaderStopped(f"the reading process stopped while it read this file (exit {code})")
            answer.set_exception(stopped if n == 0 else ReadHere())

    def end(self) -> None:
        if self.process.stdin is not None:  # small requests, never enough to fill the pipe: never blocks
            with contextlib.suppress(OSError):
                self.process.stdin.close()  # the child's next read ends: it leaves
        try:
            self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:  # busy with files nobody waits for any more
            self.process.kill()
        self._answers.join()  # it has had its end of file, and failed what still waited
        if self.process.stdout is not None:
            self.process.stdout.close()


def serve(requests: IO[bytes] | None = None, replies: IO[bytes] | None = None) -> None:
    """The child: answer `(path, max_chars)` requests with `extract`'s result, in order, until the pipe
    closes; after a `ReadFirst`, read its files whenever no request waits (first_reads.py). Its stdout
    carries only the answers: whatever a parser prints goes to stderr."""
    from engine.indexing.first_reads import FirstReads, ReadFirst, read_answer

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if replies is None:
        replies = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
    inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
    receiving = threading.Thread(target=_receive, args=(requests or sys.stdin.buffer, inbox), daemon=True)
    receiving.start()
    _warm()
    first: FirstReads | None = None
    while True:
        if first is not None and first.wanted() and inbox.empty():
            first.step()
            continue
        request = inbox.get()
        if request is None:
            return
        if isinstance(request, ReadFirst):
            first = FirstReads(request)
            continue
        path, max_chars = cast(tuple[str, int], request)
        answer = (first.take(path, max_chars) if first is not None else None) or read_answer(path, max_chars)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an exception that does not travel: the parent reads it itself
            data = pickle.dumps(("here", None), protocol=pickle.HIGHEST_PROTOCOL)
        replies.write(data)
        replies.flush()


def _receive(requests: IO[bytes], inbox: queue.SimpleQueue[object]) -> None:
    """The child's requests, read as they come (so it knows when none waits); None once the pipe closes."""
    try:
        while True:
            inbox.put(pickle.load(requests))
    except EOFError:
        pass
    finally:
        inbox.put(None)


def _warm() -> None:
    """Import the parsers before the first request (the parent keeps working meanwhile)."""
    import importlib

    for module in ("markup", "office", "pdf"):
        try:
            importlib.import_module(f"engine.indexing.extractors.{module}")
        except ImportError:  # the first file of that format says why, as it would in the parent
            pass
