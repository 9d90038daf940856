"""Clients that trickle their request one byte at a time (issue 31, N9/N10): both doors into a running
SenseTree — `sensetree serve`'s HTTP and the single-instance socket — give a request one total deadline,
not one per read, and hold at most a few such clients at once, pushing out the one that waited longest.
The test drives the trickle itself: one byte per 50 ms on every open connection, far inside any per-read
timeout, and watches (select, bounded) for the server to hang up."""

from __future__ import annotations

import json
import select
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from bridge import Api
from bridge.instance import INSTANCE_FILE, SingleInstance
from bridge.server import start_server
from engine.events import EventBus

BYTE_EVERY_S = 0.05
BOUND_S = 6.0


class _Engine:
    def __init__(self) -> None:
        self.events = EventBus()

    def get_roots(self) -> list[str]:
        return []


def trickle(port: int, count: int, first: bytes, stop_when_closed: int | None = None) -> list[float | None]:
    """Open `count` connections one per round, each sending `first`, and every 50 ms one byte on each
    connection still open; after how many seconds of its life each one's server hung up (None: still open
    at the bound). Stops early once `stop_when_closed` of them were hung up on (all by default)."""
    socks: list[socket.socket] = []
    opened: dict[socket.socket, float] = {}
    closed: list[float | None] = [None] * count
    deadline = time.monotonic() + BOUND_S
    try:
        target = stop_when_closed or count
        while sum(t is not None for t in closed) < target and time.monotonic() < deadline:
            if len(socks) < count:  # the next one joins the trickle at once, so no byte waits on set-up
                sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND_S)
                sock.sendall(first)
                socks.append(sock)
                opened[sock] = time.monotonic()
            readable, _, _ = select.select(list(opened), [], [], BYTE_EVERY_S)
            for sock in readable:  # an answer or an end of file: the server stopped waiting
                closed[socks.index(sock)] = time.monotonic() - opened.pop(sock)
            for sock in list(opened):
                try:
                    sock.send(b"x")
                except OSError:
                    closed[socks.index(sock)] = time.monotonic() - opened.pop(sock)
    finally:
        for sock in socks:
            sock.close()
    return closed


def request_threads() -> int:
    """Threads that answer one connection each (HTTP's, and the instance socket's)."""
    names = [t.name for t in threading.enumerate()]
    return sum("process_request_thread" in name or name == "sensetree-instance-call" for name in names)


def wait_for(condition, bound_s: float = BOUND_S) -> bool:
    event, deadline = threading.Event(), time.monotonic() + bound_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        event.wait(0.02)
    return True


@pytest.fixture
def server() -> Iterator:
    server = start_server(Api(_Engine()))
    yield server
    server.stop()


@pytest.fixture
def instance(sensetree_home) -> Iterator:
    def start(**options) -> int:
        listening = SingleInstance(sensetree_home, **options)
        listening.listen(on_show=lambda: None)
        started.append(listening)
        return int(json.loads((sensetree_home / INSTANCE_FILE).read_text())["port"])

    started: list[SingleInstance] = []
    yield start
    for listening in started:
        listening.release()


def test_an_http_request_that_trickles_in_is_cut_off_at_its_total_deadline(server):
    server.request_timeout_s = 1.0  # each 50 ms byte is far inside it: only a total deadline can end this
    closed = trickle(server.port, 10, b"GET /")
    assert None not in closed, f"{closed.count(None)} of 10 trickling clients still held their thread"
    assert max(closed) < 4.0  # one second, and a loaded machine's slack


def test_a_crowd_of_slow_http_clients_holds_at_most_the_cap_and_the_page_is_still_answered(server):
    baseline = request_threads()
    server.gate.cap = 4
    closed = trickle(server.port, 12, b"GET /", stop_when_closed=8)  # 30 s deadline: only the cap acts
    assert sum(t is not None for t in closed) == 8
    assert len(server.gate) <= 4
    assert wait_for(lambda: request_threads() - baseline <= 4)
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=5) as answer:
        assert answer.status == 200


def test_a_socket_client_that_trickles_its_hello_is_cut_off_at_its_total_deadline(instance):
    port = instance(request_s=1.0)
    closed = trickle(port, 10, b"hello ")
    assert None not in closed, f"{closed.count(None)} of 10 trickling clients still held their thread"
    assert max(closed) < 4.0  # one second, and a loaded machine's slack


def test_a_crowd_of_slow_socket_clients_holds_at_most_the_cap_and_the_instance_still_answers(
    instance, sensetree_home
):
    baseline = request_threads()
    port = instance(slow_clients=4)
    closed = trickle(port, 12, b"hello ", stop_when_closed=8)
    assert sum(t is not None for t in closed) == 8
    assert wait_for(lambda: request_threads() - baseline <= 4)
    assert SingleInstance(sensetree_home).notify_running() is True
