"""Render the app icon (web/img/logo.svg's design) as a 512 px PNG and an .ico for Windows and macOS.

Why: PyInstaller turns a PNG into .ico/.icns with Pillow, but nothing on the build runners renders
SVG; drawing the same few shapes with Pillow needs no extra tool. Linux uses the SVG itself.

    python build/make_icon.py [OUT]   (default build/icons/sensetree.png, plus sensetree.ico beside it)
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

SIZE = 512
SCALE = SIZE / 64
TOP_LEFT, BOTTOM_RIGHT = (0x34, 0xD3, 0x99), (0x0E, 0xA5, 0xE9)


def _gradient() -> Image.Image:
    """The diagonal green-to-blue gradient of the SVG."""
    vertical = Image.linear_gradient("L").resize((SIZE, SIZE))
    ramp = ImageChops.add(vertical, vertical.rotate(90), scale=2.0)  # (x + y) / 2: top-left to bottom-right
    start, end = Image.new("RGB", (SIZE, SIZE), TOP_LEFT), Image.new("RGB", (SIZE, SIZE), BOTTOM_RIGHT)
    return Image.composite(end, start, ramp)


def render() -> Image.Image:
    mask = Image.new("L", (SIZE, SIZE), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, SIZE - 1, SIZE - 1), radius=int(15 * SCALE), fill=255)
    icon = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    icon.paste(_gradient(), (0, 0), mask)
    draw = ImageDraw.Draw(icon)
    width = int(4 * SCALE)
    for x1, y1, x2, y2 in ((32, 50, 32, 28), (32, 36, 20, 26), (32, 32, 44, 22)):
        draw.line([(x1 * SCALE, y1 * SCALE), (x2 * SCALE, y2 * SCALE)], fill="white", width=width)
    for cx, cy, r in ((32, 20, 6), (18, 24, 4.5), (46, 20, 4.5), (32, 50, 2), (32, 36, 2), (32, 32, 2)):
        draw.ellipse(((cx - r) * SCALE, (cy - r) * SCALE, (cx + r) * SCALE, (cy + r) * SCALE), fill="white")
    draw.rounded_rectangle(
        (22 * SCALE, 49 * SCALE, 42 * SCALE, 54 * SCALE), radius=int(2.5 * SCALE), fill="white"
    )
    return icon


def main() -> int:
    out = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parent / "icons" / "sensetree.png"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    icon = render()
    icon.save(out)
    icon.save(out.with_suffix(".ico"), sizes=[(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (256, 256)])
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
