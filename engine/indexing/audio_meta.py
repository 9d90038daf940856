"""What a song, a recording or a film says about itself: title, artist, album, year, genre, duration.

mutagen reads the tags and the stream header without decoding any audio (MP3/ID3, FLAC and Ogg Vorbis
comments, MP4/M4A atoms, ID3 inside WAV), so a two-hour film costs what its header costs. Tags come
through mutagen's "easy" names where the format has them and from the raw ID3 frames otherwise (WAV).
"""

from __future__ import annotations

import os
from typing import Any

VIDEO = frozenset({".mp4", ".m4v", ".mov"})
FIELDS = (
    ("title", "Title"),
    ("artist", "Artist"),
    ("albumartist", "Album artist"),
    ("album", "Album"),
    ("date", "Year"),
    ("genre", "Genre"),
    ("composer", "Composer"),
)
ID3_NAMES = {"TIT2": "title", "TPE1": "artist", "TPE2": "albumartist", "TALB": "album", "TDRC": "date"}
ID3_NAMES |= {"TCON": "genre", "TCOM": "composer"}
MAX_VALUE = 200  # a tag is a label, not a text: a runaway value is cut


def media_about(path: str) -> str:
    """The tags and duration of an audio or video file ("" when mutagen knows nothing of it)."""
    import mutagen

    found = mutagen.File(path, easy=True)
    if found is None:
        return ""
    kind = "Video" if os.path.splitext(path)[1].lower() in VIDEO else "Audio"
    lines = []
    length = getattr(found.info, "length", 0) or 0
    if length > 0:
        lines.append(f"{kind} duration: {spoken_duration(length)}")
    tags = _tags(found.tags)
    for key, label in FIELDS:
        if tags.get(key):
            lines.append(f"{label}: {tags[key]}")
    return "\n".join(lines)


def spoken_duration(seconds: float) -> str:
    """`3 min 25 s`, `1 h 02 min`: what a person reads, not a timestamp."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def _tags(tags: Any) -> dict[str, str]:
    """Easy tags (lists of strings by name) or raw ID3 frames, as one value per field name."""
    if tags is None:
        return {}
    out: dict[str, str] = {}
    for key in list(tags.keys()):
        name = ID3_NAMES.get(key[:4], key if isinstance(key, str) else "")
        value = tags[key]
        texts = getattr(value, "text", value)  # an ID3 frame holds its strings in .text
        if isinstance(texts, str):
            texts = [texts]
        joined = ", ".join(str(t).strip() for t in texts if str(t).strip()) if texts else ""
        if name and joined and name not in out:
            out[name] = joined[:MAX_VALUE]
    return out
