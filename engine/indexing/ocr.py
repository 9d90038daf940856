"""The text in a scanned page's pixels: render the PDF page (pypdfium2), read it with Tesseract.

Tesseract runs as the system's own program, one page per process, not through an in-process binding:
a page that takes too long is killed at `PAGE_SECONDS`, a page that would need gigabytes takes the
Tesseract process down and not the engine, and its environment holds it to one thread
(`OMP_THREAD_LIMIT=1`) so a background OCR never takes both cores from the person's work. Measured
against the bindings (bench/ocr.py --compare; docs/indexing.md): `tesserocr` (a wheel bundling its own
libtesseract) spent 1.59 CPU s a page against 2.39 here, but cannot be interrupted or isolated;
`pytesseract` runs the same program and would only add a dependency.

The rendered image is bounded: 300 dpi, scaled down so it never exceeds `MAX_PIXELS` (an A4 page at
300 dpi is 8.7 megapixels; a poster-sized page is read at a lower resolution rather than at 1 GB).
Where Tesseract is missing, `available()` is False and `MISSING` says what to install.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os
import shutil
import subprocess
import sys
import tempfile

from engine.errors import ExtractionError

DPI = 300
MAX_PIXELS = 12_000_000
PAGE_SECONDS = 60.0  # a page of dense text takes 1–3 s on one quiet core; this bounds the odd one
LANGUAGE = "eng"
MISSING = (
    "Scanned PDFs are indexed by name only: Tesseract is not installed. Install it to make their text "
    "searchable: sudo apt install tesseract-ocr tesseract-ocr-eng (Debian/Ubuntu), brew install "
    "tesseract (macOS), or the UB Mannheim build (Windows)."
)


@functools.cache
def tesseract() -> str | None:
    """The Tesseract program, when one is installed with the English data."""
    found = shutil.which("tesseract")
    if found is None:
        return None
    try:
        command = [found, "--list-langs"]
        listed = subprocess.run(command, capture_output=True, text=True, timeout=20, env=program_env())
    except (OSError, subprocess.SubprocessError):
        return None
    return found if LANGUAGE in listed.stdout.split() else None


def available() -> bool:
    """Tesseract with its English data, and pypdfium2 to render pages (an install without it must not
    cache every page as unreadable)."""
    return tesseract() is not None and importlib.util.find_spec("pypdfium2") is not None


def page_count(path: str) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        return len(pdf)
    finally:
        pdf.close()


def render_page(path: str, index: int, dpi: int = DPI):  # -> PIL.Image.Image (Pillow imported lazily)
    """Page `index` (from 0) of a PDF as a grayscale image, at `dpi` but never over MAX_PIXELS."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        page = pdf[index]
        width, height = page.get_size()  # in points, 1/72 inch
        scale = dpi / 72
        if width * height * scale * scale > MAX_PIXELS:
            scale = 0.995 * math.sqrt(MAX_PIXELS / (width * height))  # pdfium rounds the size up
        image = page.render(scale=scale, grayscale=True).to_pil()
        page.close()
        return image
    finally:
        pdf.close()


def read_image(image, seconds: float = PAGE_SECONDS) -> str:
    """The text Tesseract reads in a Pillow image; ExtractionError when it fails or runs out of time."""
    return run(image, ["--psm", "3"], seconds)


def run(image, options: list[str], seconds: float = PAGE_SECONDS) -> str:
    """What `tesseract <image> stdout -l eng <options>` prints for a Pillow image (fitted to MAX_PIXELS)."""
    program = tesseract()
    if program is None:
        raise ExtractionError(MISSING)
    with tempfile.TemporaryDirectory(prefix="sensetree-ocr-") as folder:
        source = os.path.join(folder, "page.pgm")
        fit(image).convert("L").save(source)  # uncompressed: nothing spent on encoding a PNG
        env = program_env()
        try:
            done = subprocess.run(
                [program, source, "stdout", "-l", LANGUAGE, *options],
                capture_output=True,
                timeout=seconds,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise ExtractionError(f"OCR of a page took longer than {seconds:.0f} s and was stopped") from exc
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = said[-1] if said else f"exit status {done.returncode}"
        raise ExtractionError(f"Tesseract could not read the page ({reason})")
    return done.stdout.decode("utf-8", "replace").strip()


def program_env() -> dict[str, str]:
    """The environment for the system's `tesseract`: one thread, and — in the frozen app, whose loader
    points LD_LIBRARY_PATH at the bundle's own libraries — the library path the person had, so the
    system program never loads the bundle's copies (PyInstaller keeps it in LD_LIBRARY_PATH_ORIG)."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    if "LD_LIBRARY_PATH_ORIG" in env:
        env["LD_LIBRARY_PATH"] = env.pop("LD_LIBRARY_PATH_ORIG")
    elif getattr(sys, "frozen", False):
        env.pop("LD_LIBRARY_PATH", None)
    return env


def fit(image):
    """The image scaled down to at most MAX_PIXELS (a 100-megapixel photo is read at 12)."""
    pixels = image.width * image.height
    if pixels <= MAX_PIXELS:
        return image
    ratio = math.sqrt(MAX_PIXELS / pixels)
    return image.resize((max(1, int(image.width * ratio)), max(1, int(image.height * ratio))))


def read_pdf_page(path: str, index: int, seconds: float = PAGE_SECONDS) -> str:
    """Render and read one page of a PDF."""
    return read_image(render_page(path, index), seconds)
