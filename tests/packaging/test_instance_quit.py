"""The single-instance socket: a second launch asks the first to show its window, and a "quit" message
runs the same quit function the tray's Quit item calls (the path the packaging smoke test uses under
Xvfb, where no tray exists)."""

from __future__ import annotations

import json
import socket
import threading

from bridge.instance import INSTANCE_FILE, SingleInstance

BOUND_S = 10


def test_a_quit_message_runs_the_quit_function_of_the_running_instance(tmp_path):
    quit_called, show_called = threading.Event(), threading.Event()
    first = SingleInstance(tmp_path)
    first.listen(show_called.set, on_quit=quit_called.set)
    try:
        assert SingleInstance(tmp_path).notify_running("quit")
        assert quit_called.wait(BOUND_S)
        assert not show_called.is_set()
    finally:
        first.release()


def test_a_second_launch_still_asks_the_first_to_show_its_window(tmp_path):
    show_called = threading.Event()
    first = SingleInstance(tmp_path)
    first.listen(show_called.set)
    try:
        assert SingleInstance(tmp_path).notify_running()
        assert show_called.wait(BOUND_S)
    finally:
        first.release()


def test_quit_is_refused_where_the_running_instance_offered_no_quit_function(tmp_path):
    first = SingleInstance(tmp_path)
    first.listen(lambda: None)
    try:
        assert not SingleInstance(tmp_path).notify_running("quit")
    finally:
        first.release()


def test_a_message_with_the_wrong_secret_is_ignored(tmp_path):
    quit_called = threading.Event()
    first = SingleInstance(tmp_path)
    first.listen(lambda: None, on_quit=quit_called.set)
    try:
        port = json.loads((tmp_path / INSTANCE_FILE).read_text())["port"]
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND_S) as conn:
            conn.sendall(b"not-the-secret quit\n")
            assert conn.recv(16) == b""
        assert not quit_called.is_set()
    finally:
        first.release()
