"""A throwaway desktop session for the shell tests: a private D-Bus session bus, an Xvfb screen, an optional
StatusNotifier host (sni_host.py), and the app (shell_probe.py) driven over its stdin/stdout.

Why not `dbus-run-session xvfb-run ...`: the test itself must talk to the host and the app while they run,
and must be able to start the app with no tray host at all on the same kind of session. Every wait is
bounded; every process started here is ended here, by its own pid.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BOUND_S = 90
SYSTEM_PYTHON = "/usr/bin/python3"


def missing_tools() -> str | None:
    """Why the session cannot be built here, or None."""
    for tool in ("Xvfb", "dbus-daemon"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (.ci/run installs it)"
    probe = (
        subprocess.run(
            [SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gio', '2.0')"],
            capture_output=True,
            check=False,
        )
        if Path(SYSTEM_PYTHON).exists()
        else None
    )
    if probe is None or probe.returncode != 0:
        return "the system Python has no PyGObject (python3-gi), which the tray host needs"
    return None


class Lines:
    """A process's stdout read on a thread, so the test can wait for a line with a bound."""

    def __init__(self, stream: IO[str]) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        with stream:  # closed here, at its end, so no reader is left on a closed pipe
            for line in stream:
                self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def next(self, bound_s: float = BOUND_S) -> str | None:
        try:
            line = self._queue.get(timeout=bound_s)
        except queue.Empty as exc:
            raise TimeoutError(f"no output within {bound_s:.0f} s; so far: {self.seen[-20:]}") from exc
        if line is not None:
            self.seen.append(line)
        return line

    def wait_for(self, prefix: str, bound_s: float = BOUND_S) -> str:
        while True:
            line = self.next(bound_s)
            if line is None:
                raise EOFError(f"the process ended before printing {prefix!r}; it printed: {self.seen[-20:]}")
            if line.startswith(prefix):
                return line


class Session:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.processes: list[subprocess.Popen[str]] = []
        self._files: list[IO[str]] = []
        self.env = dict(
            os.environ,
            QTWEBENGINE_CHROMIUM_FLAGS="--disable-gpu",
            PYTHONPATH=str(REPO),
            XDG_RUNTIME_DIR=str(work / "run"),
        )
        (work / "run").mkdir(parents=True, exist_ok=True, mode=0o700)
        for key in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_CURRENT_DESKTOP", "KDE_FULL_SESSION"):
            self.env.pop(key, None)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            self.env["QTWEBENGINE_DISABLE_SANDBOX"] = "1"  # Chromium refuses its sandbox as root
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self._first_line(
            ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"]
        )
        self.env["DISPLAY"] = ":" + self._first_line(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"]
        )

    def _first_line(self, command: list[str]) -> str:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=self.env,
            start_new_session=True,
        )
        self.processes.append(process)
        lines = Lines(process.stdout)  # type: ignore[arg-type]
        line = lines.next(30)
        if not line:
            raise RuntimeError(f"{command[0]} did not start")
        return line.strip()

    def start_host(self) -> Host:
        process = subprocess.Popen(
            [SYSTEM_PYTHON, str(HERE / "sni_host.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log("host.err"),
            text=True,
            env={k: v for k, v in self.env.items() if k != "PYTHONPATH"},
            start_new_session=True,
        )
        self.processes.append(process)
        host = Host(process)
        assert json.loads(host.lines.next(30) or "{}") == {"ready": True}, (
            self.work / "host.err"
        ).read_text()
        return host

    def start_app(self, home: Path, *args: str) -> App:
        return self.launch([sys.executable, str(HERE / "shell_probe.py"), str(home), *args], self.env, REPO)

    def launch(self, command: list[str], env: dict[str, str], cwd: Path) -> App:
        """Any program on this session's display and bus (`env` gets DISPLAY and the bus address)."""
        env = {
            **env,
            "DISPLAY": self.env["DISPLAY"],
            "DBUS_SESSION_BUS_ADDRESS": self.env["DBUS_SESSION_BUS_ADDRESS"],
        }
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log("app.err"),
            text=True,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        self.processes.append(process)
        return App(process, self.work / "app.err")

    def _log(self, name: str) -> IO[str]:
        file = open(self.work / name, "a")  # noqa: SIM115 - closed in close(), after the process ends
        self._files.append(file)
        return file

    def close(self) -> None:
        for process in reversed(self.processes):
            if process.stdin is not None:
                process.stdin.close()
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(15)
        for file in self._files:
            file.close()


class Host:
    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines = Lines(process.stdout)  # type: ignore[arg-type]

    def ask(self, cmd: str, **args: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.lines.next() or "{}")
        assert "error" not in answer, answer
        return answer


class App:
    def __init__(self, process: subprocess.Popen[str], err: Path) -> None:
        self.process = process
        self.err = err
        self.lines = Lines(process.stdout)  # type: ignore[arg-type]

    def say(self, word: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(word + "\n")
        self.process.stdin.flush()

    def geometry(self) -> dict[str, Any]:
        self.say("geometry")
        return json.loads(self.lines.wait_for("GEOMETRY ").removeprefix("GEOMETRY "))

    def wait_visible(self, visible: bool) -> None:
        """Until the window's latest reported state is `visible` (it may have been reported already,
        before a line the test waited for)."""
        wanted = f"VISIBLE {'true' if visible else 'false'}"
        reported = [line for line in self.lines.seen if line.startswith("VISIBLE ")]
        if not reported or reported[-1] != wanted:
            self.lines.wait_for(wanted)

    def wait_exit(self, bound_s: float = BOUND_S) -> int:
        try:
            return self.process.wait(bound_s)
        except subprocess.TimeoutExpired as exc:
            raise TimeoutError(
                f"the app did not quit; it printed {self.lines.seen[-20:]}\n{self.err.read_text()[-3000:]}"
            ) from exc
