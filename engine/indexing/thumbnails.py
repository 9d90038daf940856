"""Small pictures of images for the result lists and chat sources, made by the engine and cached.

A thumbnail is a JPEG at most SIDE pixels on its longer side, written once to `<data dir>/thumbnails/`
under a name drawn from the file's path, size and modification time (an edited photo gets a new one),
and handed to the page as a data URL: the same answer works in the desktop window and in a browser,
without a file route. Decoding is bounded as for OCR (photo_ocr.load: JPEGs drafted, other formats over
DECODE_PIXELS not decoded), so a 100-megapixel PNG gets no thumbnail rather than costing 400 MB.
"""

from __future__ import annotations

import base64
import hashlib
import io
import logging
import os

from engine.errors import ExtractionError
from engine.indexing.photo_ocr import is_photo, load

log = logging.getLogger(__name__)

SIDE = 160  # CSS shows it at 48-64 px; twice that for sharp high-density screens, with room
QUALITY = 80


def thumbnail(path: str, cache_dir: str) -> str | None:
    """The picture at `path` as a `data:image/jpeg;base64,…` URL; None when it is no picture we decode."""
    if not is_photo(path):
        return None
    st = os.stat(path)
    key = hashlib.sha256(f"{path}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:32]
    cached = os.path.join(cache_dir, f"{key}.jpg")
    if not os.path.exists(cached):
        data = _made(path)
        if data is None:
            return None
        os.makedirs(cache_dir, exist_ok=True)
        partial = f"{cached}.{os.getpid()}.part"
        with open(partial, "wb") as out:
            out.write(data)
        os.replace(partial, cached)  # never a half-written thumbnail under the final name
    with open(cached, "rb") as held:
        return "data:image/jpeg;base64," + base64.b64encode(held.read()).decode("ascii")


def _made(path: str) -> bytes | None:
    try:
        image = load(path, SIDE * SIDE * 4, mode="RGB")
    except ExtractionError as exc:
        log.debug("no thumbnail for %s: %s", path, exc.reason)
        return None
    image.thumbnail((SIDE, SIDE))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=QUALITY)
    return out.getvalue()
