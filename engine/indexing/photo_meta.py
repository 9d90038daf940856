"""What a photo's EXIF says, in the words a person searches with: "May 2024", "Canon EOS 80D", a place.

Pillow reads the header only (`Image.open` is lazy and nothing here decodes pixels), so a 100-megapixel
image costs what its EXIF block costs. Dates come out as the day, and the month and year in words
("Taken: 17 May 2024 (May 2024), 14:03"), because "photos from May 2024" is how people ask; the GPS
position as signed decimal degrees with its hemisphere. Without Pillow (a core dependency, but an
install may lack it) photos keep their descriptor and name, and nothing here raises.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

MONTHS = ("January February March April May June July August September October November December").split()
EXIF_IFD, GPS_IFD = 0x8769, 0x8825
MAKE, MODEL, DATETIME, ORIGINAL, LENS = 0x010F, 0x0110, 0x0132, 0x9003, 0xA434
LAT_REF, LAT, LON_REF, LON = 1, 2, 3, 4


def photo_about(path: str) -> str:
    """The photo's metadata lines ("" when it has none, or Pillow cannot read it)."""
    try:
        from PIL import Image
    except ImportError:
        return ""
    with Image.open(path) as image:
        size = image.size
        exif = _header_exif(image, Image.Exif())
        inner = exif.get_ifd(EXIF_IFD)
        gps = exif.get_ifd(GPS_IFD)
    lines = [f"Picture: {size[0]} × {size[1]} pixels ({size[0] * size[1] / 1e6:.1f} megapixels)"]
    taken = _date(inner.get(ORIGINAL) or exif.get(DATETIME))
    if taken is not None:
        lines.append(f"Taken: {_spoken(taken)}")
    camera = _camera(exif.get(MAKE), exif.get(MODEL))
    if camera:
        lines.append(f"Camera: {camera}")
    if isinstance(inner.get(LENS), str) and inner[LENS].strip():
        lines.append(f"Lens: {inner[LENS].strip()}")
    place = _position(gps)
    if place:
        lines.append(f"Location: {place}")
    return "\n".join(lines)


def _header_exif(image: Any, empty: Any) -> Any:
    """The EXIF a header holds. A PNG's `getexif()` decodes the whole image to look for an eXIf chunk
    after the pixels (measured: +100 MB for 100 megapixels), so a PNG gives only what came before them."""
    if image.format != "PNG":
        return image.getexif()
    raw = image.info.get("exif")
    if raw:
        empty.load(raw)
    return empty


def _date(raw: Any) -> dt.datetime | None:
    """EXIF's `2024:05:17 14:03:22` (some cameras write dashes, or only the date)."""
    if not isinstance(raw, str):
        return None
    text = raw.strip().strip("\x00").replace("-", ":")
    for pattern, length in (("%Y:%m:%d %H:%M:%S", 19), ("%Y:%m:%d", 10)):
        try:
            return dt.datetime.strptime(text[:length], pattern)
        except ValueError:
            continue
    return None


def _spoken(when: dt.datetime) -> str:
    month = MONTHS[when.month - 1]
    clock = f", {when:%H:%M}" if (when.hour, when.minute) != (0, 0) else ""
    return f"{when.day} {month} {when.year} ({month} {when.year}){clock}"


def _camera(make: Any, model: Any) -> str:
    """`Canon EOS 80D` rather than `Canon Canon EOS 80D`: many models repeat their maker."""
    make = make.strip().strip("\x00") if isinstance(make, str) else ""
    model = model.strip().strip("\x00") if isinstance(model, str) else ""
    if make and model.lower().startswith(make.split()[0].lower()):
        return model
    return " ".join(part for part in (make, model) if part)


def _position(gps: Any) -> str:
    lat, lon = _degrees(gps.get(LAT)), _degrees(gps.get(LON))
    if lat is None or lon is None:
        return ""
    lat_ref = str(gps.get(LAT_REF) or "N").strip().upper()[:1] or "N"
    lon_ref = str(gps.get(LON_REF) or "E").strip().upper()[:1] or "E"
    signed_lat = -lat if lat_ref == "S" else lat
    signed_lon = -lon if lon_ref == "W" else lon
    return f"{lat:.4f}° {lat_ref}, {lon:.4f}° {lon_ref} (GPS coordinates {signed_lat:.6f}, {signed_lon:.6f})"


def _degrees(value: Any) -> float | None:
    """(degrees, minutes, seconds) rationals as one number; None for anything malformed."""
    try:
        d, m, s = (float(part) for part in value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    total = d + m / 60 + s / 3600
    return total if 0 <= total <= 180 else None
