"""A listener bound by another process on the recorded port gets nothing secret (issue 31, N3)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.instance import INSTANCE_FILE, InstanceClient, SingleInstance, Unreachable

# Another process on the port a dead SenseTree recorded: it keeps every byte it is sent and answers
# like an instance would ("ok", then a forged result), hoping the client trusts it.
SQUATTER = """
import socket, sys
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(8)
print(listener.getsockname()[1], flush=True)
with open(sys.argv[1], "ab") as heard:
    while True:
        conn, _ = listener.accept()
        conn.settimeout(2)
        try:
            conn.sendall(b"ok\\n")
            heard.write(conn.recv(65536))
            heard.flush()
            conn.sendall(b'{"result": {"ok": true, "data": "forged"}}\\n')
        except OSError:
            pass
        conn.close()
"""


@pytest.fixture
def squatter(tmp_path) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    heard = tmp_path / "heard.bin"
    heard.write_bytes(b"")
    proc = subprocess.Popen([sys.executable, "-c", SQUATTER, str(heard)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        yield proc, int(proc.stdout.readline()), heard
    finally:
        proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def _stale_record(home: Path, port: int, pid: int) -> str:
    secret = "5e" * 16
    (home / INSTANCE_FILE).write_text(json.dumps({"port": port, "secret": secret, "pid": pid}))
    return secret


def test_a_squatter_on_the_recorded_port_is_sent_nothing_secret_and_is_not_taken_for_sensetree(
    sensetree_home, squatter
):
    proc, port, heard = squatter
    secret = _stale_record(sensetree_home, port, proc.pid)  # a PID that is alive: the proof must decide
    assert InstanceClient.find(sensetree_home) is None
    with pytest.raises(Unreachable, match="not SenseTree"):
        InstanceClient(sensetree_home).call("set_config", {"patch": {"reasoning": {"api_key": "sk-typed"}}})
    assert SingleInstance(sensetree_home).notify_running() is False  # the window starts; serve too
    received = heard.read_bytes()
    assert secret.encode() not in received and b"sk-typed" not in received
    assert received.startswith(b"hello ")


def test_a_record_whose_process_ended_is_stale_and_the_next_launch_replaces_it(sensetree_home, squatter):
    _proc, port, heard = squatter
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    _stale_record(sensetree_home, port, int(ended.stdout))
    assert InstanceClient.find(sensetree_home) is None and heard.read_bytes() == b""  # not even a hello
    instance = SingleInstance(sensetree_home)
    instance.listen(on_quit=lambda: None)
    try:
        assert json.loads((sensetree_home / INSTANCE_FILE).read_text())["port"] != port
        assert SingleInstance(sensetree_home).notify_running("ping") is False  # ours, but no such verb
    finally:
        instance.release()
