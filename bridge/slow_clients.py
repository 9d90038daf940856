"""Slow clients: a total deadline for each request, and a cap on the connections still sending one.

Both doors into a running SenseTree (`sensetree serve`'s HTTP and the single-instance socket) used to
bound each `recv` only: a client that sends one byte a second never trips a per-read timeout, so it held
its thread for as long as it liked (issue 31, N9/N10: 37 of 200 trickling clients still held threads
after 30 s). Here a request has one budget from the moment the server starts waiting for it: every
read waits only for what is left, and a read past the deadline raises `TimeoutError`, however the bytes
trickle in. And at most `cap` connections may be waiting for their request at once: a new one pushes
out the one that has waited longest. A real client (the page, the CLI) sends its request in
milliseconds, so it is never the oldest; a crowd of slow ones only ever pushes out its own members, and
holds at most `cap` threads between them.
"""

from __future__ import annotations

import contextlib
import io
import socket
import threading
import time
from collections import OrderedDict
from typing import Any


class DeadlineReader(io.RawIOBase):
    """A socket's incoming bytes, read within a total deadline (`restart` starts the next request's)."""

    def __init__(self, sock: socket.socket, budget_s: float) -> None:
        super().__init__()
        self._sock = sock
        self.budget_s = budget_s
        self._deadline = time.monotonic() + budget_s
        self._expired = False

    def restart(self) -> None:
        self._deadline = time.monotonic() + self.budget_s

    def expire(self) -> None:
        """End the wait now (the gate pushed this connection out): a blocked read returns, and raises."""
        self._expired = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RD)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._deadline - time.monotonic()
        if self._expired or left <= 0:
            raise TimeoutError(f"the request did not arrive within {self.budget_s:g} s")
        self._sock.settimeout(left)
        try:
            count = self._sock.recv_into(buffer)
        finally:
            self._sock.settimeout(self.budget_s)  # what a write waits for, at most, per send
        if self._expired:  # shut down while waiting: that end of file is ours, not the client's
            raise TimeoutError("too many clients were sending requests slowly; this one waited longest")
        return count


def reader_of(sock: socket.socket, budget_s: float) -> tuple[DeadlineReader, io.BufferedReader]:
    """The deadline reader of `sock` and a buffered file over it (what `readline` is called on)."""
    raw = DeadlineReader(sock, budget_s)
    return raw, io.BufferedReader(raw)


class Gate:
    """The connections waiting for their request; past `cap`, the one that waited longest is pushed out."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._waiting: OrderedDict[DeadlineReader, None] = OrderedDict()
        self._lock = threading.Lock()

    def enter(self, waiting: DeadlineReader) -> None:
        with self._lock:
            self._waiting.pop(waiting, None)
            self._waiting[waiting] = None
            pushed = [self._waiting.popitem(last=False)[0] for _ in range(len(self._waiting) - self.cap)]
        for oldest in pushed:
            oldest.expire()

    def leave(self, waiting: DeadlineReader) -> None:
        with self._lock:
            self._waiting.pop(waiting, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._waiting)
