"""Driving the packaged app from outside, shared by the smoke test and bench/package.py.

Why it exists: the frozen app is a binary; nothing of ours can be imported into it. We unpack the .deb
into a temporary prefix, start the executable under Xvfb with a clean environment (temporary data dir,
a HOME with nothing in it, offline Hugging Face, cwd far from the source tree), and reach the page
through Qt WebEngine's own remote-debugging port (QTWEBENGINE_REMOTE_DEBUGGING, the Chrome DevTools
protocol), so every bridge call below is made by the real page through `pywebview.api`. Quitting goes
through the single-instance socket, which runs the same function as the tray's Quit item.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parents[2]
DIST = REPO / "build" / "dist"
INSTALL_DIR = "opt/sensetree"
POLL_S = 0.1
RELOAD_RETRIES = 5

T = TypeVar("T")


def find_deb() -> Path:
    debs = sorted(DIST.glob("sensetree_*_amd64.deb"), key=lambda p: p.stat().st_mtime)
    if not debs:
        raise FileNotFoundError(f"No .deb in {DIST}: run `make package` first.")
    return debs[-1]


def unpack_deb(deb: Path, prefix: Path) -> Path:
    """`dpkg-deb -x` into `prefix` (no system install); returns the unpacked executable."""
    subprocess.run(["dpkg-deb", "-x", str(deb), str(prefix)], check=True)
    return prefix / INSTALL_DIR / "sensetree"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def clean_env(data_home: Path, person_home: Path, debug_port: int | None = None) -> dict[str, str]:
    """An environment with nothing from the build: no venv, no PYTHONPATH, no model cache, offline."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": str(person_home),
        "SENSETREE_HOME": str(data_home),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "QTWEBENGINE_CHROMIUM_FLAGS": "--disable-gpu",
        "XDG_RUNTIME_DIR": str(person_home / "run"),
    }
    (person_home / "run").mkdir(parents=True, exist_ok=True, mode=0o700)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env["QTWEBENGINE_DISABLE_SANDBOX"] = "1"  # Chromium refuses its sandbox as root
    if debug_port is not None:
        env["QTWEBENGINE_REMOTE_DEBUGGING"] = f"127.0.0.1:{debug_port}"
    return env


def under_display(command: list[str]) -> list[str]:
    """Run under Xvfb unless a display is already there (a developer's desktop)."""
    if os.environ.get("DISPLAY") or not shutil.which("xvfb-run"):
        return command
    return ["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", *command]


def start(command: list[str], env: dict[str, str], cwd: Path, log_dir: Path) -> subprocess.Popen[bytes]:
    """Output goes to files: Qt WebEngine's helpers inherit the descriptors and may outlive the app."""
    if os.environ.get("DISPLAY"):
        env = {**env, "DISPLAY": os.environ["DISPLAY"]}
    log_dir.mkdir(parents=True, exist_ok=True)
    with open(log_dir / "app.out", "wb") as out, open(log_dir / "app.err", "wb") as err:
        return subprocess.Popen(
            command,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Last resort after a failed test: end the process group we started."""
    if process.poll() is None:
        os.killpg(process.pid, 15)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)


def wait_for(condition: Callable[[], T | None], bound_s: float, what: str) -> T:
    """Poll `condition` until it returns a value, at most `bound_s` seconds."""
    deadline = time.monotonic() + bound_s
    pause = threading.Event()
    while True:
        value = condition()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up after {bound_s:.0f} s waiting for {what}")
        pause.wait(POLL_S)


def app_words(*files: Path, chars: int = 3000) -> str:
    """The tails of the app's own output files (stderr, stdout, its log), for a failure message: a
    timeout alone hides the traceback the app printed or logged (issue 35 took reading the log by hand)."""
    parts = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        if text.strip():
            parts.append(f"--- {path} (last {chars} characters) ---\n{text[-chars:]}")
    return "\n".join(parts) or "(the app wrote nothing to " + ", ".join(str(path) for path in files) + ")"


def app_files(logs: Path | None, data_home: Path) -> list[Path]:
    """Where the app's own words are: its stderr and stdout (when `start` captured them) and its log."""
    captured = [logs / "app.err", logs / "app.out"] if logs is not None else []
    return [*captured, data_home / "logs" / "sensetree.log"]


@contextmanager
def step(name: str, files: list[Path]) -> Iterator[None]:
    """Name the smoke test's step that failed and show the app's output with it."""
    try:
        yield
    except Exception as exc:
        failure = f"step failed: {name}: {type(exc).__name__}: {exc}"
        raise AssertionError(f"{failure}\n{app_words(*files)}") from exc


def page_socket_url(debug_port: int) -> str | None:
    """The DevTools WebSocket of the SenseTree page, once Qt WebEngine lists it."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{debug_port}/json/list", timeout=2) as reply:
            targets = json.loads(reply.read())
    except (OSError, ValueError):
        return None
    for target in targets:
        if target.get("type") == "page" and target.get("url", "").endswith("index.html"):
            return str(target["webSocketDebuggerUrl"])
    return None


class PageReloaded(RuntimeError):
    """The page navigated while a script ran (pywebview loads the page again as it injects its API)."""


class DevToolsPage:
    """A minimal Chrome DevTools client (RFC 6455 WebSocket over a plain socket) for Runtime.evaluate."""

    def __init__(self, ws_url: str, timeout_s: float = 120):
        url = urlparse(ws_url)
        self._sock = socket.create_connection(
            (url.hostname or "127.0.0.1", url.port or 80), timeout=timeout_s
        )
        key = base64.b64encode(os.urandom(16)).decode()
        self._sock.sendall(
            (
                f"GET {url.path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self._sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head[:200]!r}")
        self._next_id = 0

    def close(self) -> None:
        self._sock.close()

    def evaluate(self, expression: str) -> Any:
        """The (awaited) value of a JavaScript expression in the page."""
        self._next_id += 1
        params = {"expression": expression, "awaitPromise": True, "returnByValue": True}
        self._send(json.dumps({"id": self._next_id, "method": "Runtime.evaluate", "params": params}))
        while True:
            message = json.loads(self._receive())
            if message.get("id") != self._next_id:
                continue  # an event we did not subscribe to, or a late answer
            result = message.get("result", {})
            if "context" in message.get("error", {}).get("message", "").lower():
                raise PageReloaded(message["error"]["message"])
            if "exceptionDetails" in result or "error" in message:
                raise RuntimeError(f"the page failed to evaluate {expression!r}: {message}")
            return result["result"].get("value")

    def _send(self, text: str) -> None:
        payload, mask = text.encode(), os.urandom(4)
        size = len(payload)
        if size < 126:
            header = bytes([0x81, 0x80 | size])
        elif size < 65536:
            header = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
        else:
            header = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big")
        self._sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _receive(self) -> str:
        parts: list[bytes] = []
        while True:
            first, second = self._exactly(2)
            size = second & 0x7F
            if size == 126:
                size = int.from_bytes(self._exactly(2), "big")
            elif size == 127:
                size = int.from_bytes(self._exactly(8), "big")
            payload = self._exactly(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the connection")
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts).decode()

    def _exactly(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self._sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data


def bridge_call(page: DevToolsPage, command: str, *args: Any) -> Any:
    """Call a bridge command from the page, as the UI does, once pywebview has injected its API."""
    call = f"pywebview.api.{command}(...{json.dumps(list(args))})"
    script = (
        "new Promise(resolve => { const go = () => resolve(" + call + "); "
        f"if (window.pywebview && window.pywebview.api && window.pywebview.api.{command}) go(); "
        "else window.addEventListener('pywebviewready', go, {once: true}); })"
    )
    for _ in range(RELOAD_RETRIES):
        try:
            return page.evaluate(script)
        except PageReloaded:
            continue
    raise RuntimeError(f"the page kept reloading while calling {command}")


def request_quit(data_home: Path) -> bool:
    """Ask the running app to quit through its single-instance socket (the tray's Quit function), as the
    product's own client does it (the listener proves itself before the secret is sent)."""
    from bridge.instance import SingleInstance

    return SingleInstance(data_home).notify_running("quit")
