"""The real desktop window: pywebview on Qt WebEngine under Xvfb (or Qt's offscreen platform), a bridge
call made from the page and its result read back with evaluate_js, and an engine event delivered."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("webview", reason="pip install pywebview PySide6-Essentials PySide6-Addons")
pytest.importorskip("PySide6.QtWebEngineWidgets", reason="Qt WebEngine (PySide6-Addons) is not installed")

REPO = Path(__file__).resolve().parents[2]


def _command(home: Path) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ, QTWEBENGINE_CHROMIUM_FLAGS="--disable-gpu", PYTHONPATH=str(REPO))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env["QTWEBENGINE_DISABLE_SANDBOX"] = "1"  # Chromium refuses its sandbox as root
    probe = [sys.executable, str(REPO / "tests" / "e2e" / "window_probe.py"), str(home)]
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return probe, env
    if shutil.which("xvfb-run"):
        return ["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", *probe], env
    env["QT_QPA_PLATFORM"] = "offscreen"
    return probe, env


def test_a_bridge_call_from_the_page_in_the_real_window_reads_back_through_evaluate_js(tmp_path):
    command, env = _command(tmp_path / "home")
    out_path, err_path = tmp_path / "probe.out", tmp_path / "probe.err"
    # Output goes to files, not pipes: Qt WebEngine's helper processes inherit the descriptors and may
    # outlive the probe for a while, and a pipe would make us wait for them too.
    with open(out_path, "w") as out, open(err_path, "w") as err:
        returncode = subprocess.run(
            command,
            check=False,
            env=env,
            cwd=REPO,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            timeout=180,
        ).returncode
    stdout, stderr = out_path.read_text(), err_path.read_text()
    lines = [line for line in stdout.splitlines() if line.startswith("PROBE ")]
    assert lines, f"the window process printed no result (exit {returncode}):\n{stderr[-3000:]}"
    report = json.loads(lines[-1].removeprefix("PROBE "))
    assert "error" not in report, report
    assert report["built_after_shown"] is True  # the engine's build waited for the window to show
    assert report["version"]["ok"] is True and isinstance(report["version"]["data"], str)
    assert report["roots"] == {"ok": True, "data": []}
    assert report["page_title"] == "SenseTree"
    assert report["event"] == {"topic": "agent-step", "payload": {"step": "🔍 Searching: probe"}}


def test_the_real_window_opens_sized_from_the_screen_then_reopens_where_it_was_clamped_on_screen(tmp_path):
    from tests.e2e.desktop import Session, missing_tools

    if missing_tools() is not None:
        pytest.skip(str(missing_tools()))
    session = Session(tmp_path)
    home = tmp_path / "home"
    try:
        first = session.start_app(home)
        first.lines.wait_for("READY")
        first.wait_visible(True)
        opened = first.geometry()
        assert (opened["x"], opened["y"], opened["width"], opened["height"]) == (
            128,
            90,
            1024,
            720,
        )  # 80 % of 1280×900
        first.say("close")  # no tray on this desktop: closing quits, remembering the place
        assert first.wait_exit() == 0

        saved = json.loads((home / "window.json").read_text())
        assert saved["rect"] == {"x": 128, "y": 90, "width": 1024, "height": 720}
        saved["rect"] = {
            "x": 700,
            "y": 400,
            "width": 1100,
            "height": 650,
        }  # as if dragged half off the screen
        (home / "window.json").write_text(json.dumps(saved))

        second = session.start_app(home)
        second.lines.wait_for("READY")
        second.wait_visible(True)
        again = second.geometry()
        assert (again["x"], again["y"], again["width"], again["height"]) == (180, 250, 1100, 650)
        second.say("close")
        assert second.wait_exit() == 0
    finally:
        session.close()
