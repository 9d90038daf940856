"""The release workflow smoke-starts every artifact it builds, and the Windows installer brings the WebView2
runtime when the machine lacks it. Read from the files themselves, since their runners are not here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = (REPO / ".github" / "workflows" / "release.yml").read_text()
INSTALLER = (REPO / "build" / "windows" / "sensetree.iss").read_text()


def _job(name: str) -> str:
    match = re.search(rf"^  {name}:\n(.*?)(?=^  \w+:\n|\Z)", WORKFLOW, re.S | re.M)
    assert match, name
    return match.group(1)


def test_every_os_job_smoke_starts_each_artifact_it_builds():
    assert "build/smoke_start.py build/dist/sensetree/sensetree\n" in _job("linux")
    assert "build/smoke_start.py build/dist/sensetree-portable\n" in _job("linux")
    assert "build/smoke_start.py build/dist/sensetree/sensetree.exe" in _job("windows")
    assert "build/smoke_start.py build/dist/sensetree-portable.exe" in _job("windows")
    assert "build/smoke_start.py build/dist/SenseTree.app/Contents/MacOS/sensetree" in _job("macos")


def test_windows_and_macos_builds_keep_qt_out_of_the_build_venv():
    for job in ("windows", "macos"):
        assert "pip uninstall -y -q PySide6-Essentials PySide6-Addons PySide6-WebEngine" in _job(job), job
    assert "uninstall" not in _job("linux")


def test_the_installer_checks_for_the_webview2_runtime_and_runs_the_evergreen_bootstrapper_when_absent():
    assert "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}" in INSTALLER  # the WebView2 runtime's client id
    assert re.search(r'Filename: "\{tmp\}\\MicrosoftEdgeWebview2Setup\.exe".*Check: NeedsWebView2', INSTALLER)
    assert "go.microsoft.com/fwlink/p/?LinkId=2124703" in _job(
        "windows"
    )  # Microsoft's evergreen bootstrapper


def test_version_flag_prints_the_version_and_exits_0():
    done = subprocess.run(
        [sys.executable, str(REPO / "app.py"), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=REPO,
    )

    assert done.returncode == 0 and done.stdout.startswith("SenseTree ")


def test_the_smoke_script_runs_version_then_serve(tmp_path):
    launcher = tmp_path / "sensetree"
    launcher.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{REPO / 'app.py'}' \"$@\"\n")
    launcher.chmod(0o755)

    done = subprocess.run(
        [sys.executable, str(REPO / "build" / "smoke_start.py"), str(launcher), "--timeout", "120"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0].startswith("SenseTree ")
    assert "serve answered app_version" in done.stdout


def test_linux_runs_the_import_gate_and_the_package_smoke_test_before_anything_is_published():
    linux = _job("linux")
    gate = "tests/packaging/test_frozen_import_path.py"
    steps = ["make install", gate, "make package\n", "make package-test"]

    assert [linux.index(step) for step in steps] == sorted(linux.index(step) for step in steps)
    assert "needs: [linux, windows, macos]" in _job("release")


def test_every_job_installs_the_locked_versions():
    assert '--no-deps "torch==$TORCH"' in _job("linux")  # torch's dependencies come from the lock
    for job in ("windows", "macos"):
        assert 'requirements/lock.txt > "$RUNNER_TEMP/constraints.txt"' in _job(job), job
        assert '-c "$RUNNER_TEMP/constraints.txt" -e ".[app,package]"' in _job(job), job
        assert "--require-hashes --no-deps -r requirements/model.txt" in _job(job), job
