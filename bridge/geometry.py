"""Where the window opens and how big it is: from the screen, remembered between launches, never off-screen.

Why pure functions: the rules (80 % of the available area, at most 1280×820, at least 900×600 unless the
screen itself is smaller; a remembered place is kept only while it still lies on a screen) are what a
person notices on a 768-pixel laptop or after unplugging a monitor, and they are easiest to pin with
plain numbers. The GUI toolkit only supplies the screens' available areas (bridge/window.py); the state
lives in `<data dir>/window.json` with the one-time tray notice flag, written atomically.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

STATE_FILE = "window.json"
SHARE = 0.8
MAX_SIZE = (1280, 820)
MIN_SIZE = (900, 600)
# A remembered window is kept where it was only if this much of its top strip (the title bar, what a
# person grabs to move it) is on one screen; otherwise it is brought back onto the nearest screen.
GRAB_STRIP = (120, 40)


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.x + self.width

    @property
    def bottom(self) -> int:
        return self.y + self.height

    def overlap(self, other: Rect) -> tuple[int, int]:
        """The width and height of the intersection (0 when they do not meet)."""
        return (
            max(0, min(self.right, other.right) - max(self.x, other.x)),
            max(0, min(self.bottom, other.bottom) - max(self.y, other.y)),
        )


def minimum_size(area: Rect) -> tuple[int, int]:
    """900×600, or the whole area on a screen smaller than that (a minimum larger than the screen
    would push the window's edges off it)."""
    return min(MIN_SIZE[0], area.width), min(MIN_SIZE[1], area.height)


def default_rect(area: Rect) -> Rect:
    """80 % of the available area, at most 1280×820, at least the minimum; centred on that area."""
    low_w, low_h = minimum_size(area)
    width = max(low_w, min(MAX_SIZE[0], int(area.width * SHARE)))
    height = max(low_h, min(MAX_SIZE[1], int(area.height * SHARE)))
    return Rect(area.x + (area.width - width) // 2, area.y + (area.height - height) // 2, width, height)


def fit(saved: Rect | None, areas: list[Rect]) -> Rect:
    """The rectangle to open the window at. `areas` are the screens' available areas, primary first.

    Without a remembered rectangle, or when none of it can be grabbed on any screen now, the default
    on the primary screen. Otherwise the remembered one, shrunk to fit the screen it is most on and
    moved just enough to lie wholly inside it.
    """
    if not areas:
        return Rect(0, 0, *MAX_SIZE) if saved is None else saved
    if saved is None or saved.width <= 0 or saved.height <= 0:
        return default_rect(areas[0])
    strip = Rect(saved.x, saved.y, saved.width, min(saved.height, GRAB_STRIP[1]))
    reachable = [
        a
        for a in areas
        if strip.overlap(a)[0] >= min(GRAB_STRIP[0], saved.width)
        and strip.overlap(a)[1] >= min(GRAB_STRIP[1], saved.height)
    ]
    if not reachable:
        return default_rect(areas[0])
    area = max(reachable, key=lambda a: _area(saved.overlap(a)))
    return clamp(saved, area)


def clamp(rect: Rect, area: Rect) -> Rect:
    """`rect` shrunk to at most `area` (never below the minimum) and moved wholly inside it."""
    low_w, low_h = minimum_size(area)
    width = max(low_w, min(rect.width, area.width))
    height = max(low_h, min(rect.height, area.height))
    x = min(max(rect.x, area.x), area.right - width)
    y = min(max(rect.y, area.y), area.bottom - height)
    return Rect(x, y, width, height)


def _area(size: tuple[int, int]) -> int:
    return size[0] * size[1]


@dataclass
class WindowState:
    """What the shell remembers between launches: the window's rectangle and whether the one-time
    "keeps indexing in the tray" notice was already shown."""

    rect: Rect | None = None
    tray_notice_shown: bool = False

    @classmethod
    def load(cls, home: Path) -> WindowState:
        """A missing or unreadable file is a first launch, not an error: it only holds a window place."""
        try:
            raw = json.loads((home / STATE_FILE).read_text(encoding="utf-8"))
            rect = raw.get("rect")
            return cls(
                Rect(*(int(rect[k]) for k in ("x", "y", "width", "height"))) if rect else None,
                bool(raw.get("tray_notice_shown", False)),
            )
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return cls()

    def save(self, home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        tmp = home / (STATE_FILE + ".tmp")
        data = {"rect": asdict(self.rect) if self.rect else None, "tray_notice_shown": self.tray_notice_shown}
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, home / STATE_FILE)

    def save_quietly(self, home: Path) -> None:
        """Saving a window place must never stop a quit (a read-only or full disk)."""
        with contextlib.suppress(OSError):
            self.save(home)
