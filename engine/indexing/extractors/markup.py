"""Formats that are markup around the text: HTML, EPUB (XHTML chapters in a zip) and RTF.

HTML is turned into readable paragraphs — block elements become paragraph breaks, table cells are
tab-separated, scripts and styles are dropped — so chunking and snippets see sentences rather than a
line per inline tag. The page's <title> is returned as the title and also leads the text, so a
keyword search on the title finds the page.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

from bs4.dammit import UnicodeDammit

from engine.errors import ExtractionError
from engine.indexing.extractors.base import ReadMeta, TextBudget, clean_title
from engine.indexing.extractors.plaintext import read_bounded

MARKUP_BYTES_PER_CHAR = 8  # how many bytes of markup we read per character of text we may keep
RTF_BYTES_PER_CHAR = 16  # RTF spends many control words per character

_DROPPED_TAGS = ("script", "style", "noscript", "template", "head", "svg", "iframe", "object")
_BLOCK_TAGS = (
    "p",
    "div",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "table",
    "section",
    "article",
    "header",
    "footer",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "main",
    "nav",
    "aside",
    "hr",
    "address",
    "caption",
    "body",
)
_BLOCKS = frozenset(_BLOCK_TAGS)
_BLANK_RUNS = re.compile(r"\n{3,}")


def read_html(path: str, budget: TextBudget) -> ReadMeta:
    data, complete = read_bounded(path, budget.limit * MARKUP_BYTES_PER_CHAR)
    if not complete:
        budget.mark_truncated()
    text, title = html_to_text(data)
    budget.add(text)
    return ReadMeta(title=title)


def html_to_text(markup: bytes | str, lead_with_title: bool = True) -> tuple[str, str | None]:
    """Readable text of an HTML document (led by its title unless told not to) and its <title>.

    Read as a stream of tags (the stdlib parser BeautifulSoup's "html.parser" builder uses), never as a
    tree: a tree of tag-dense markup cost about 130 MB per MB read, and 8 MB may be read (issue 31, item
    4), and inserting the paragraph breaks into it was quadratic in a parent's children."""
    text = markup if isinstance(markup, str) else UnicodeDammit(markup, is_html=True).unicode_markup or ""
    reader = _TextOfHtml()
    for start in range(0, len(text), _FEED):
        reader.feed(text[start : start + _FEED])
    reader.close()
    title = clean_title(reader.title.getvalue()) if reader.saw_title else None
    body = _tidy(reader.text.getvalue())
    if lead_with_title and title and not body.startswith(title):
        body = f"{title}\n\n{body}" if body else title
    return body, title


_FEED = 64 * 1024


class _TextOfHtml(HTMLParser):
    """Collects the text a reader sees: dropped elements skipped, a paragraph break around each block
    element, a tab after each table cell, a line break for <br>; the <title>'s text kept apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self.title = io.StringIO(), io.StringIO()
        self.saw_title = False
        self._dropped: list[str] = []  # the dropped elements we are inside, innermost last
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":  # a <head> never closed ends here
            self._dropped = [t for t in self._dropped if t != "head"]
        if tag == "title" and not self.saw_title:
            self._in_title = self.saw_title = True
        if tag in _DROPPED_TAGS:
            self._dropped.append(tag)
        elif not self._dropped:
            self.text.write("\n" if tag == "br" else "\n\n" if tag in _BLOCKS else "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _DROPPED_TAGS:  # <svg/>, <object/>: nothing inside to skip
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in self._dropped:
            del self._dropped[len(self._dropped) - 1 - self._dropped[::-1].index(tag) :]
        elif not self._dropped:
            self.text.write("\t" if tag in ("td", "th") else "\n\n" if tag in _BLOCKS else "")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title.write(data)
        if not self._dropped:
            self.text.write(data)


def _tidy(text: str) -> str:
    lines = (
        "\t".join(" ".join(cell.split()) for cell in line.split("\t")).strip() for line in text.split("\n")
    )
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


def read_epub(path: str, budget: TextBudget) -> ReadMeta:
    """Chapters in reading (spine) order, each converted like an HTML page."""
    from ebooklib import ITEM_DOCUMENT, epub  # here, not above: an HTML file need not import it

    book = epub.read_epub(path, options={"ignore_ncx": True})
    titles = book.get_metadata("DC", "title")
    title = clean_title(titles[0][0]) if titles else None
    for item_id, _linear in book.spine:
        item = book.get_item_with_id(item_id)
        if item is None or item.get_type() != ITEM_DOCUMENT:
            continue
        chapter, _chapter_title = html_to_text(item.get_content(), lead_with_title=False)
        if not budget.add(chapter, sep="\n\n"):
            break
    return ReadMeta(title=title)


def read_rtf(path: str, budget: TextBudget) -> ReadMeta:
    from striprtf.striprtf import rtf_to_text  # here, not above: an HTML file need not import it

    data, complete = read_bounded(path, budget.limit * RTF_BYTES_PER_CHAR)
    if not data.lstrip().startswith(b"{\\rtf"):
        raise ExtractionError("Damaged RTF: the file does not start with an RTF header")
    if not complete:
        budget.mark_truncated()
    text = rtf_to_text(data.decode("latin-1"), errors="replace")
    budget.add(_BLANK_RUNS.sub("\n\n", text.replace("\r\n", "\n")).strip())
    return ReadMeta()
