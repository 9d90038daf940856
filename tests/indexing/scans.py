"""Scanned documents built in the tests: PDFs whose pages are only pictures of text (no text layer), as a
scanner without OCR writes them."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

A4_150DPI = (1240, 1754)
SLIP_150DPI = (900, 150)  # a 6 × 1 inch slip: one line, read in a fraction of a second (at 300 dpi, 0.5 MP)


def write_scan(path: Path, pages: list[list[str]], size: tuple[int, int] = A4_150DPI) -> Path:
    """An image-only PDF at 150 dpi: each page a picture of its lines."""
    font = ImageFont.load_default(size=36)
    images = []
    for lines in pages:
        page = Image.new("L", size, 255)
        draw = ImageDraw.Draw(page)
        top = 150 if size[1] > 600 else 50
        for row, line in enumerate(lines):
            draw.text((60, top + 70 * row), line, font=font, fill=0)
        images.append(page)
    path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(path, "PDF", resolution=150, save_all=True, append_images=images[1:])
    return path


def page_word(n: int) -> str:
    """A word found on page `n` only (an invented word, so no other file holds it)."""
    return "Marrow" + "".join("bcdfghjklm"[int(d)] for d in f"{n:03d}")


def write_slips(path: Path, count: int) -> Path:
    """A `count`-page scan of one-line slips, page n holding `page_word(n)`: cheap to build and to read."""
    return write_scan(path, [[f"Slip {n} {page_word(n)}"] for n in range(count)], SLIP_150DPI)
