"""The Linux tray as a desktop panel sees it: a StatusNotifier host on a private session bus reads the
icon's menu over dbusmenu, clicks its entries and the icon itself, and receives its notifications, while
the real app (window, engine, tray) runs under Xvfb. Without a host, closing the window quits."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("webview", reason="pip install pywebview PySide6-Essentials PySide6-Addons")
pytest.importorskip("PySide6.QtWebEngineWidgets", reason="Qt WebEngine (PySide6-Addons) is not installed")

from tests.e2e.desktop import Session, missing_tools  # noqa: E402
from tests.packaging.frozen_app import wait_for  # noqa: E402

pytestmark = pytest.mark.skipif(missing_tools() is not None, reason=str(missing_tools()))


@pytest.fixture
def session(tmp_path):
    session = Session(tmp_path)
    yield session
    session.close()


def _pause_entry(host, label: str) -> dict:
    """The menu's second entry once it reads `label` (the state is applied to the menu a moment after
    the click, as the engine answers)."""
    return wait_for(
        lambda: next((e for e in host.ask("menu")["menu"][1:2] if e["label"] == label), None),
        30,
        f"the menu to say {label!r}",
    )


def _settings_paused(home) -> bool:
    return bool(json.loads((home / "settings.json").read_text())["indexing"]["paused"])


def test_the_tray_menu_opens_the_window_pauses_and_resumes_indexing_and_quits_with_exit_0(session, tmp_path):
    host = session.start_host()
    home = tmp_path / "home"
    app = session.start_app(home, "--tray")
    app.lines.wait_for("READY")
    host.ask("wait_item")

    menu = host.ask("menu")["menu"]
    assert [entry["label"] for entry in menu] == ["Open SenseTree", "Pause indexing", "Quit"]
    assert menu[1]["toggle_type"] == "checkmark" and menu[1]["toggle_state"] == 0
    assert app.geometry()["visible"] is False  # started for the tray: the window waits hidden

    host.ask("click", label="Pause indexing")
    assert _pause_entry(host, "Resume indexing")["toggle_state"] == 1
    assert _settings_paused(home) is True
    host.ask("click", label="Resume indexing")
    assert _pause_entry(host, "Pause indexing")["toggle_state"] == 0
    assert _settings_paused(home) is False

    host.ask("activate")  # a left click on the icon
    app.wait_visible(True)
    host.ask("click", label="Quit")
    assert app.wait_exit() == 0
    app.lines.wait_for("EXIT")
    assert not (home / "instance.json").exists()


def test_closing_with_a_tray_hides_the_window_and_says_so_once(session, tmp_path):
    host = session.start_host()
    home = tmp_path / "home"
    app = session.start_app(home)
    app.lines.wait_for("READY")
    host.ask("wait_item")
    app.wait_visible(True)

    app.say("close")
    app.wait_visible(False)
    host.ask("click", label="Open SenseTree")
    app.wait_visible(True)
    app.say("close")
    app.wait_visible(False)

    notes = host.ask("notifications")["notifications"]
    assert [n["body"] for n in notes] == ["SenseTree keeps indexing in the tray"]
    assert json.loads((home / "window.json").read_text())["tray_notice_shown"] is True
    assert app.process.poll() is None  # still running, still indexing
    host.ask("click", label="Quit")
    assert app.wait_exit() == 0


def test_closing_the_window_without_a_tray_host_quits_cleanly(session, tmp_path):
    home = tmp_path / "home"
    app = session.start_app(home, "--tray")  # asked for the tray, but there is none: the window shows
    app.lines.wait_for("READY")
    app.wait_visible(True)

    app.say("close")

    assert app.wait_exit() == 0
    app.lines.wait_for("EXIT")
    assert not (home / "instance.json").exists()
    assert json.loads((home / "window.json").read_text())["rect"]["width"] >= 900
