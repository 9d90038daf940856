"""Turn planned entries into real files: text, Word, PDF, CSV, pictures and random binaries.

Every writer is deterministic for its input (Word zips carry a fixed timestamp, PDFs are written
with reportlab's invariant mode, pictures are drawn from their own seed), so one seed gives the same
bytes on every build, and copies are byte-identical because they are copied, not rewritten.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

from .plan import Entry

_FIXED = (2020, 1, 1, 0, 0, 0)


def write_all(root: Path, entries: list[Entry]) -> None:
    """Originals first, then copies and shrunk pictures (their source exists by then), then dates."""
    for entry in sorted(entries, key=lambda e: (e.copy_of is not None or e.shrink_of is not None, e.path)):
        target = root / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.copy_of is not None:
            shutil.copyfile(root / entry.copy_of, target)
        elif entry.shrink_of is not None:
            _shrink(root / entry.shrink_of, target)
        else:
            _WRITERS[entry.fmt](target, entry)
    for entry in entries:
        stamp = entry.when.timestamp()
        os.utime(root / entry.path, (stamp, stamp))


def _text(target: Path, entry: Entry) -> None:
    target.write_text(entry.text or "", encoding="utf-8")


def _docx(target: Path, entry: Entry) -> None:
    import docx

    document = docx.Document()
    document.core_properties.created = datetime(2020, 1, 1)
    document.core_properties.modified = datetime(2020, 1, 1)
    document.core_properties.last_modified_by = "owner"
    for i, para in enumerate((entry.text or "").split("\n\n")):
        if i == 0:
            document.add_heading(para.strip(), level=1)
        else:
            document.add_paragraph(para.strip())
    raw = io.BytesIO()
    document.save(raw)
    target.write_bytes(_fixed_zip(raw.getvalue()))


def _fixed_zip(data: bytes) -> bytes:
    """The same zip with every member's timestamp fixed, so a rebuild gives the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, _FIXED)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def _pdf(target: Path, entry: Entry) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(target), pagesize=A4, invariant=1)
    y = 800.0
    for para in (entry.text or "").split("\n\n"):
        for line in _wrap(para.replace("\n", " "), 95):
            if y < 60:
                pdf.showPage()
                y = 800.0
            pdf.setFont("Helvetica", 10)
            pdf.drawString(50, y, line)
            y -= 14
        y -= 8
    pdf.save()


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def _picture(target: Path, entry: Entry) -> None:
    """A scene of its own: a sky-to-ground gradient with drawn shapes, distinct pixels per seed."""
    from PIL import Image, ImageDraw

    assert entry.image is not None
    seed, width, height = entry.image
    rng = random.Random(seed)
    top = tuple(rng.randint(0, 255) for _ in range(3))
    bottom = tuple(rng.randint(0, 255) for _ in range(3))
    img = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(img)
    for y in range(height):
        t = y / max(1, height - 1)
        draw.line(
            [(0, y), (width, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        )
    for _ in range(rng.randint(6, 14)):
        x0, y0 = rng.randint(0, width), rng.randint(0, height)
        x1, y1 = x0 + rng.randint(10, width // 2), y0 + rng.randint(10, height // 2)
        colour = tuple(rng.randint(0, 255) for _ in range(3))
        shape = rng.choice(("ellipse", "rectangle", "line"))
        if shape == "ellipse":
            draw.ellipse([x0, y0, x1, y1], fill=colour)
        elif shape == "rectangle":
            draw.rectangle([x0, y0, x1, y1], fill=colour)
        else:
            draw.line([x0, y0, x1, y1], fill=colour, width=rng.randint(2, 9))
    if entry.fmt == "png":
        img.save(target, format="PNG")
    else:
        img.save(target, format="JPEG", quality=88)


def _shrink(source: Path, target: Path) -> None:
    """The picture re-encoded at half size and lower quality: another file, the same photo."""
    from PIL import Image

    with Image.open(source) as img:
        small = img.convert("RGB").resize((img.width // 2, img.height // 2))
        small.save(target, format="JPEG", quality=70)


def _binary(target: Path, entry: Entry) -> None:
    target.write_bytes(random.Random(entry.path).randbytes(entry.size))


_WRITERS = {
    "txt": _text,
    "md": _text,
    "csv": _text,
    "py": _text,
    "toml": _text,
    "docx": _docx,
    "pdf": _pdf,
    "jpg": _picture,
    "png": _picture,
    "bin": _binary,
}
