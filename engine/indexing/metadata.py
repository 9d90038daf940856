"""The metadata of a file that holds no text (a photo's EXIF, a song's or a film's tags), as lines of
words for its one chunk: `Extracted.about`.

Each reader lives in its own module and is imported at its first file (Pillow and mutagen cost the
engine's start otherwise). A header a reader cannot make sense of is no failure: the file was
catalogued by name before any metadata was read, and it still is, so every error here becomes "".
"""

from __future__ import annotations

import importlib
import logging
import os
import warnings

log = logging.getLogger(__name__)

PHOTOS = frozenset(".jpg .jpeg .tif .tiff .png .webp .heic .heif .dng".split())
AUDIO = frozenset(".mp3 .flac .ogg .opus .m4a .aac .wav".split())
VIDEO = frozenset(".mp4 .m4v .mov".split())
READERS = {
    **dict.fromkeys(PHOTOS, ("photo_meta", "photo_about")),
    **dict.fromkeys(AUDIO | VIDEO, ("audio_meta", "media_about")),
}


def about(path: str) -> str:
    """What the file's own metadata says, in lines ("" when nothing, or when it cannot be read)."""
    reader = READERS.get(os.path.splitext(path)[1].lower())
    if reader is None:
        return ""
    module, name = reader
    try:
        loaded = importlib.import_module(f"engine.indexing.{module}")
        with warnings.catch_warnings():  # libraries warn about odd headers of files we only read
            warnings.simplefilter("ignore")
            text: str = getattr(loaded, name)(path)
        return text
    except Exception as exc:  # noqa: BLE001 (a damaged header: the file stays catalogued by name)
        log.debug("no metadata from %s: %s", path, exc)
        return ""
