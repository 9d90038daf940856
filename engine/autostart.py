"""Start SenseTree in the tray at login, per each OS's own convention; off until the person turns it on.

Why it is its own module: the three conventions share nothing but the command to run, and the engine
should only have to say "on" or "off" (`app.autostart` in the settings). What each OS gets:

- Linux (XDG autostart): `$XDG_CONFIG_HOME/autostart/sensetree.desktop` (default `~/.config`);
- Windows: the value `SenseTree` under `HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run`;
- macOS: a LaunchAgent `~/Library/LaunchAgents/org.sensetree.SenseTree.plist` with RunAtLoad.

Every entry runs the app with `--tray`: the window stays hidden behind the tray icon (or shows, where
the desktop has no tray). Turning autostart off removes exactly what turning it on wrote.
"""

from __future__ import annotations

import logging
import os
import plistlib
import shutil
import sys
from pathlib import Path

from engine.errors import ConfigError

log = logging.getLogger(__name__)

TRAY_FLAG = "--tray"
APP_NAME = "SenseTree"
LAUNCH_AGENT_LABEL = "org.sensetree.SenseTree"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"


def launch_command() -> list[str]:
    """The command that starts this installation in the tray: the frozen executable, the installed
    `sensetree` script, or this interpreter running app.py from a source checkout."""
    if getattr(sys, "frozen", False):
        return [sys.executable, TRAY_FLAG]
    script = shutil.which("sensetree")
    if script:
        return [script, TRAY_FLAG]
    from engine.resources import base_dir

    return [sys.executable, str(base_dir() / "app.py"), TRAY_FLAG]


def xdg_entry_path() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / "sensetree.desktop"


def launch_agent_path() -> Path:
    return Path.home() / "Library" / "LaunchAgents" / f"{LAUNCH_AGENT_LABEL}.plist"


def desktop_entry(command: list[str]) -> str:
    """An XDG autostart entry; Exec is quoted as the Desktop Entry specification asks."""
    exec_line = " ".join(_desktop_quote(arg) for arg in command)
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        f"Name={APP_NAME}\n"
        "Comment=Search and reorganise your folders by meaning\n"
        f"Exec={exec_line}\n"
        "Icon=sensetree\n"
        "Terminal=false\n"
        "X-GNOME-Autostart-enabled=true\n"
    )


def _desktop_quote(arg: str) -> str:
    if not any(ch in arg for ch in " \t\n\"'\\><~|&;$*?#()`%"):
        return arg
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return f'"{escaped.replace("%", "%%")}"'


def is_enabled(platform: str | None = None) -> bool:
    platform = platform or sys.platform
    if platform == "win32":
        return _read_run_value() is not None
    if platform == "darwin":
        return launch_agent_path().exists()
    return xdg_entry_path().exists()


def set_enabled(enabled: bool, command: list[str] | None = None, platform: str | None = None) -> None:
    """Write (or remove) this OS's autostart entry. Raises ConfigError naming the entry it could not write."""
    platform = platform or sys.platform
    command = command or launch_command()
    try:
        if platform == "win32":
            _set_run_value(subprocess_line(command) if enabled else None)
        elif platform == "darwin":
            _write_or_remove(launch_agent_path(), _launch_agent(command) if enabled else None)
        else:
            _write_or_remove(xdg_entry_path(), desktop_entry(command).encode() if enabled else None)
    except OSError as exc:
        raise ConfigError(
            f"Could not {'turn on' if enabled else 'turn off'} start at login ({exc}). "
            "Check that your user can write to its autostart location, then try again."
        ) from exc
    log.info("start at login %s: %s", "on" if enabled else "off", " ".join(command))


def subprocess_line(command: list[str]) -> str:
    """A Windows command line (the Run key holds one string)."""
    import subprocess

    return subprocess.list2cmdline(command)


def _launch_agent(command: list[str]) -> bytes:
    return plistlib.dumps(
        {
            "Label": LAUNCH_AGENT_LABEL,
            "ProgramArguments": command,
            "RunAtLoad": True,
            "ProcessType": "Interactive",
        }
    )


def _write_or_remove(path: Path, content: bytes | None) -> None:
    if content is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(content)
    os.replace(tmp, path)


if sys.platform == "win32":
    import winreg

    def _read_run_value() -> str | None:
        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
                return str(winreg.QueryValueEx(key, APP_NAME)[0])
        except FileNotFoundError:
            return None

    def _set_run_value(line: str | None) -> None:
        with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
            if line is not None:
                winreg.SetValueEx(key, APP_NAME, 0, winreg.REG_SZ, line)
                return
            try:
                winreg.DeleteValue(key, APP_NAME)
            except FileNotFoundError:
                pass

else:

    def _read_run_value() -> str | None:
        raise ConfigError("The Run key exists only on Windows; use platform='linux' or 'darwin' here.")

    def _set_run_value(line: str | None) -> None:
        raise ConfigError("The Run key exists only on Windows; use platform='linux' or 'darwin' here.")
