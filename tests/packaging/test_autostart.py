"""Start at login: the XDG autostart entry on Linux and the LaunchAgent plist on macOS are written to,
and removed from, exactly where each desktop looks; the Windows Run key is only tested on Windows."""

from __future__ import annotations

import plistlib
import shlex
import sys

import pytest

from engine import autostart
from engine.errors import ConfigError


def test_turning_autostart_on_writes_an_xdg_entry_that_starts_the_app_in_the_tray(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))

    autostart.set_enabled(True, command=["/opt/sensetree/sensetree", "--tray"], platform="linux")

    entry = tmp_path / "config" / "autostart" / "sensetree.desktop"
    lines = entry.read_text().splitlines()
    assert lines[0] == "[Desktop Entry]"
    assert "Exec=/opt/sensetree/sensetree --tray" in lines
    assert "Type=Application" in lines and "X-GNOME-Autostart-enabled=true" in lines
    assert autostart.is_enabled(platform="linux")


def test_turning_autostart_off_removes_the_xdg_entry_and_is_harmless_when_already_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    autostart.set_enabled(True, command=["/usr/bin/sensetree", "--tray"], platform="linux")

    autostart.set_enabled(False, platform="linux")
    autostart.set_enabled(False, platform="linux")

    assert not (tmp_path / "config" / "autostart" / "sensetree.desktop").exists()
    assert not autostart.is_enabled(platform="linux")


def test_autostart_is_off_until_someone_turns_it_on(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))

    assert not autostart.is_enabled(platform="linux")


def test_an_executable_path_with_spaces_is_quoted_in_the_exec_line(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))

    autostart.set_enabled(True, command=["/home/a b/Sense Tree/sensetree", "--tray"], platform="linux")

    text = (tmp_path / "config" / "autostart" / "sensetree.desktop").read_text()
    exec_value = next(line for line in text.splitlines() if line.startswith("Exec="))
    assert shlex.split(exec_value.removeprefix("Exec=")) == ["/home/a b/Sense Tree/sensetree", "--tray"]


def test_without_xdg_config_home_the_entry_goes_under_dot_config(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))

    autostart.set_enabled(True, command=["sensetree", "--tray"], platform="linux")

    assert (tmp_path / ".config" / "autostart" / "sensetree.desktop").is_file()


def test_on_macos_a_launch_agent_runs_the_app_with_the_tray_flag_at_load(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    command = ["/Applications/SenseTree.app/Contents/MacOS/sensetree", "--tray"]

    autostart.set_enabled(True, command=command, platform="darwin")

    plist = plistlib.loads(
        (tmp_path / "Library" / "LaunchAgents" / "org.sensetree.SenseTree.plist").read_bytes()
    )
    assert plist["ProgramArguments"] == command and plist["RunAtLoad"] is True
    assert autostart.is_enabled(platform="darwin")
    autostart.set_enabled(False, platform="darwin")
    assert not autostart.is_enabled(platform="darwin")


def test_an_unwritable_autostart_folder_raises_a_config_error_that_says_what_to_check(tmp_path, monkeypatch):
    blocker = tmp_path / "config"
    blocker.write_text("a file where a folder should be")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))

    with pytest.raises(ConfigError, match="start at login"):
        autostart.set_enabled(True, command=["sensetree", "--tray"], platform="linux")


def test_from_a_source_checkout_the_launch_command_ends_with_the_tray_flag():
    command = autostart.launch_command()

    assert command[-1] == "--tray"
    assert not getattr(sys, "frozen", False)


@pytest.mark.skipif(sys.platform != "win32", reason="the Run key exists only on Windows")
def test_on_windows_the_run_key_holds_the_quoted_command_line():
    autostart.set_enabled(True, command=[r"C:\Program Files\SenseTree\sensetree.exe", "--tray"])
    try:
        assert autostart.is_enabled()
    finally:
        autostart.set_enabled(False)
    assert not autostart.is_enabled()


def test_the_start_up_setting_writes_and_removes_the_login_entry(tmp_path, sensetree_home):
    from engine.embed import HashingEmbedder
    from engine.engine import Engine

    engine = Engine(sensetree_home, embedder=HashingEmbedder())
    try:
        entry = tmp_path / "user-home" / ".config" / "autostart" / "sensetree.desktop"
        assert engine.get_config().app.autostart is False and not entry.exists()
        engine.set_config({"app": {"autostart": True}})
        assert entry.exists() and "--tray" in entry.read_text()
        engine.set_config({"app": {"autostart": False}})
        assert not entry.exists()
    finally:
        engine.running.close()
