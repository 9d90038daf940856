"""Which file of `web/` a GET path names, or why the path is malformed (issue 31, F11).

A path the UI could never have asked for is refused before any file is looked up, with a reason, and
answered 400, because passed on, a decoded NUL or an over-long name reaches the file system, whose errors
would escape the handler and close the connection with no answer. Refused: a NUL or
other control character, an encoded slash or backslash (`%2F`, `%5C`: a second way to spell a folder),
a `.` or `..` segment (the UI's links never hold one; resolving them would only invite escapes),
percent-escapes that are not UTF-8, or more than MAX_PATH characters (the UI's longest is under 40).
"""

from __future__ import annotations

import re
import urllib.parse

MAX_PATH = 512
_ENCODED_SEPARATOR = re.compile(r"%(2f|5c)", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class MalformedPath(ValueError):
    """A static path the UI could never have asked for; its message says why."""


def web_relative(url_path: str) -> str:
    """The file of `web/` that `url_path` (the URL's path, still percent-encoded) names, relative to it."""
    if len(url_path) > MAX_PATH:
        raise MalformedPath(f"The path is {len(url_path):,} characters long; the UI's paths are shorter.")
    if _ENCODED_SEPARATOR.search(url_path):
        raise MalformedPath("The path spells a slash or backslash as %2F or %5C; write it as '/'.")
    try:
        decoded = urllib.parse.unquote(url_path, errors="strict")
    except UnicodeDecodeError:
        raise MalformedPath("The path's %-escapes are not UTF-8 text.") from None
    if _CONTROL.search(decoded) or "\\" in decoded:
        raise MalformedPath("The path holds a control character or a backslash.")
    segments = decoded.lstrip("/").split("/")
    if any(segment in (".", "..") for segment in segments):
        raise MalformedPath("The path holds a '.' or '..' segment.")
    return "/".join(segments) or "index.html"
