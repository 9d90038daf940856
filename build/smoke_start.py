"""Smoke-start a built artifact on its own runner: `sensetree --version`, then `sensetree serve` answering a
bridge call over HTTP with the printed token. Exit 0 only if both work.

Why a script and not workflow shell: the same check runs on Linux, Windows and macOS runners (stdlib only,
no venv needed), and it is the minimum that proves the frozen app finds its Python, its resources and its
stores: the version comes from bundled metadata, and `app_version` through `serve` builds the Engine.

    python build/smoke_start.py PATH/TO/sensetree[.exe] [--timeout 300]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path


def check_version(executable: Path, timeout: float) -> str:
    done = subprocess.run(
        [str(executable), "--version"], capture_output=True, text=True, timeout=timeout, check=False
    )
    out = (done.stdout + done.stderr).strip()
    if done.returncode != 0 or not out.startswith("SenseTree "):
        raise SystemExit(f"--version failed (exit {done.returncode}): {out[-2000:]}")
    return out


def check_serve(executable: Path, timeout: float) -> str:
    with tempfile.TemporaryDirectory(prefix="sensetree-smoke-") as home:
        env = {**os.environ, "SENSETREE_HOME": home, "HF_HUB_OFFLINE": "1"}
        errors = open(Path(home) / "serve.err", "w+")  # noqa: SIM115 - a file, not a pipe nobody drains
        server = subprocess.Popen(
            [str(executable), "serve"],
            stdout=subprocess.PIPE,
            stderr=errors,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=home,
        )
        try:
            first: list[str] = []
            reader = threading.Thread(target=lambda: first.append(server.stdout.readline()), daemon=True)  # type: ignore[union-attr]
            reader.start()
            reader.join(timeout)
            if not first or "SenseTree UI: " not in first[0]:
                errors.seek(0)
                raise SystemExit(
                    f"serve printed no URL within {timeout:.0f} s: {first!r}\n{errors.read()[-2000:]}"
                )
            base, token = first[0].split("SenseTree UI: ", 1)[1].strip().split("/?token=")
            request = urllib.request.Request(
                f"{base}/api/app_version",
                data=b"{}",
                method="POST",
                headers={"X-SenseTree-Token": token, "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                answer = json.loads(reply.read())
            if not answer.get("ok"):
                raise SystemExit(f"the bridge refused app_version: {answer}")
            return str(answer["data"])
        finally:
            server.terminate()
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(30)
            if server.stdout is not None:
                server.stdout.close()
            errors.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("executable", type=Path)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    executable = args.executable.resolve()  # serve runs in a temporary folder
    print(check_version(executable, args.timeout))
    print(f"serve answered app_version = {check_serve(executable, args.timeout)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
