"""File names that are not valid text, stored without loss.

A name written by another system (`Rechnung_M\\xfcller.txt` in Latin-1 on a UTF-8 Linux) comes out of
`os.scandir` as text with *lone surrogates* (`'\\udcfc'`, Python's `surrogateescape`): that string opens
the right file, but SQLite, DuckDB, Arrow/LanceDB and UTF-8 JSON all refuse to encode it, and one such
row would roll back a whole batch of queue inserts.

So the index keeps paths in memory exactly as the OS gave them, and every store receives
`to_store(path)`: a valid-UTF-8 spelling that `from_store` turns back into the very same string.
The mapping is per character, so prefixes and "this folder and beneath" ranges keep working on the
stored spelling:

* a lone surrogate U+D800+k (k < 2048) becomes U+10F800+k, in the last private-use block;
* a real character from U+10F7FF up (vanishingly rare in a file name) is written behind the escape
  U+10F7FF, so nothing a name really contains can be mistaken for an escaped byte.

Every ordinary path is its own stored spelling (no migration, no cost beyond one regex scan).
`printable(path)` is for people: undecodable bytes shown as U+FFFD, safe to print or log anywhere.
"""

from __future__ import annotations

import re

_SURROGATES = 0xD800
_BASE = 0x10F800
_ESCAPE = "\U0010f7ff"
_NEEDS_ENCODING = re.compile("[\ud800-\udfff\U0010f7ff-\U0010ffff]")
_ENCODED = re.compile("\U0010f7ff(.)|([\U0010f800-\U0010ffff])", re.DOTALL)
_LONE = re.compile("[\ud800-\udfff]")


def _encode_char(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code <= 0xDFFF:
        return chr(_BASE + code - _SURROGATES)
    return _ESCAPE + char


def _decode_char(match: re.Match[str]) -> str:
    escaped, mapped = match.groups()
    if escaped is not None:
        return escaped
    return chr(_SURROGATES + ord(mapped) - _BASE)


def to_store(path: str) -> str:
    """The spelling of `path` every store accepts (itself for any ordinary path)."""
    return _NEEDS_ENCODING.sub(_encode_char, path)


def from_store(text: str) -> str:
    """The path `to_store` was given (exact inverse)."""
    return _ENCODED.sub(_decode_char, text)


def is_text(path: str) -> bool:
    """False when the name holds bytes that are not valid text in the file system's encoding."""
    return _LONE.search(path) is None


def printable(path: str) -> str:
    """`path` for a person's eyes: each undecodable byte shown as U+FFFD (never raises on output)."""
    return _LONE.sub("\ufffd", path)
