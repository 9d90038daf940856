"""Plain text in whatever encoding the file was saved in, read without ever loading a huge file whole.

Order of decisions: a byte-order mark wins (UTF-8/16/32); UTF-16 without a mark is recognised by its
NUL pattern; otherwise NUL bytes mean binary; strict UTF-8 is tried next (by far the most common);
only then does charset-normalizer guess. Its guesses between single-byte Western code pages are
unstable on short texts (it picked cp1257 for French cp1252 here), so when cp1252 decodes the bytes
about as cleanly as its best guess, cp1252 — the usual legacy desktop encoding — is preferred.
Text that still looks like control characters is treated as binary.
"""

from __future__ import annotations

import codecs
import re

import charset_normalizer
from charset_normalizer.utils import is_multi_byte_encoding

from engine.indexing.extractors.base import NotText, ReadMeta, TextBudget, clean_title

SNIFF_BYTES = 8192
BYTES_PER_CHAR = 4  # the most any supported encoding spends on one character
CP1252_TOLERANCE = 0.1  # extra "chaos" tolerated before cp1252 loses to charset-normalizer's guess

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]")
_NEWLINES = re.compile(r"\r\n?")


def read_bounded(path: str, limit_bytes: int) -> tuple[bytes, bool]:
    """At most `limit_bytes` from the start of the file, and whether that was the whole file."""
    with open(path, "rb") as handle:
        data = handle.read(limit_bytes + 1)
    if len(data) > limit_bytes:
        return data[:limit_bytes], False
    return data, True


def decode_text(data: bytes, complete: bool = True) -> str:
    """Bytes as text with newlines normalised; NotText when they are not text in any known encoding.

    `complete=False` means `data` is a prefix, so a character cut in half at the end is dropped.
    """
    encoding = _bom_encoding(data) or _utf16_without_bom(data[:SNIFF_BYTES])
    if encoding is None:
        if b"\x00" in data[:SNIFF_BYTES]:
            raise NotText()
        encoding = "utf-8" if _is_utf8(data, complete) or _mostly_utf8(data) else _guess_encoding(data)
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    text = decoder.decode(data, final=complete)
    if _looks_binary(text):
        raise NotText()
    return _NEWLINES.sub("\n", text)


def read_plain(path: str, budget: TextBudget) -> ReadMeta:
    """Any text format read as-is (plain text, code, CSV, JSON, XML, YAML…)."""
    budget.add(_read_capped(path, budget))
    return ReadMeta()


def read_markdown(path: str, budget: TextBudget) -> ReadMeta:
    text = _read_capped(path, budget)
    budget.add(text)
    return ReadMeta(title=markdown_title(text))


def _read_capped(path: str, budget: TextBudget) -> str:
    data, complete = read_bounded(path, budget.limit * BYTES_PER_CHAR + BYTES_PER_CHAR)
    text = decode_text(data, complete)
    if not complete:
        budget.mark_truncated()
    return text


def _bom_encoding(data: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    return None


def _utf16_without_bom(sample: bytes) -> str | None:
    """UTF-16 text without a BOM: mostly-ASCII text leaves every other byte NUL."""
    if len(sample) < 16:
        return None
    even, odd = sample[0::2], sample[1::2]
    even_nul, odd_nul = even.count(0) / len(even), odd.count(0) / len(odd)
    if odd_nul > 0.9 and even_nul < 0.1:
        return "utf-16-le"
    if even_nul > 0.9 and odd_nul < 0.1:
        return "utf-16-be"
    return None


def _is_utf8(data: bytes, complete: bool) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")(errors="strict").decode(data, final=complete)
    except UnicodeDecodeError:
        return False
    return True


def _mostly_utf8(data: bytes) -> bool:
    """UTF-8 with a stray bad byte or two (a truncated download, a bad paste) stays UTF-8, read lossily,
    rather than being re-guessed as a single-byte code page that garbles every accented letter."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    multibyte = any(ord(c) > 127 and c != "\ufffd" for c in text)
    return multibyte and bad <= max(1, len(data) // 1000)


def _guess_encoding(data: bytes) -> str:
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is None:
        raise NotText()
    if not is_multi_byte_encoding(best.encoding):
        for match in matches:
            if "cp1252" in match.could_be_from_charset and match.chaos <= best.chaos + CP1252_TOLERANCE:
                return "cp1252"
    return best.encoding


def _looks_binary(text: str) -> bool:
    sample = text[:SNIFF_BYTES]
    return bool(sample) and len(_CONTROL.findall(sample)) > 0.05 * len(sample)


_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-{3,})[ \t]*$")
_FRONT_MATTER_TITLE = re.compile(r"""^title:\s*["']?(.+?)["']?\s*$""", re.IGNORECASE)


def markdown_title(text: str) -> str | None:
    """The title in YAML front matter, else the first ATX (`# x`) or setext heading outside code."""
    lines = text[:50_000].split("\n")
    front = _front_matter_title(lines)
    if front:
        return front
    in_fence = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not line.strip():
            continue
        atx = _ATX_HEADING.match(line)
        if atx:
            return clean_title(atx.group(1))
        if index + 1 < len(lines) and _SETEXT_UNDERLINE.match(lines[index + 1]):
            return clean_title(line)
    return None


def _front_matter_title(lines: list[str]) -> str | None:
    if not lines or lines[0].strip() != "---":
        return None
    for line in lines[1:60]:
        if line.strip() in ("---", "..."):
            return None
        found = _FRONT_MATTER_TITLE.match(line)
        if found:
            return clean_title(found.group(1))
    return None
