"""Formats that are markup around the text: HTML, EPUB (XHTML chapters in a zip) and RTF.

HTML is turned into readable paragraphs — block elements become paragraph breaks, table cells are
tab-separated, scripts and styles are dropped — so chunking and snippets see sentences rather than a
line per inline tag. The page's <title> is returned as the title and also leads the text, so a
keyword search on the title finds the page.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup
from ebooklib import ITEM_DOCUMENT, epub
from striprtf.striprtf import rtf_to_text

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
_BLANK_RUNS = re.compile(r"\n{3,}")


def read_html(path: str, budget: TextBudget) -> ReadMeta:
    data, complete = read_bounded(path, budget.limit * MARKUP_BYTES_PER_CHAR)
    if not complete:
        budget.mark_truncated()
    text, title = html_to_text(data)
    budget.add(text)
    return ReadMeta(title=title)


def html_to_text(markup: bytes | str, lead_with_title: bool = True) -> tuple[str, str | None]:
    """Readable text of an HTML document (led by its title unless told not to) and its <title>."""
    soup = BeautifulSoup(markup, "html.parser")
    title = clean_title(soup.title.get_text()) if soup.title else None
    for tag in soup(_DROPPED_TAGS):
        tag.decompose()
    for tag in soup("br"):
        tag.replace_with("\n")
    for tag in soup(["td", "th"]):
        tag.insert_after("\t")
    for tag in soup(_BLOCK_TAGS):
        tag.insert_before("\n\n")
        tag.insert_after("\n\n")
    body = _tidy(soup.get_text())
    if lead_with_title and title and not body.startswith(title):
        body = f"{title}\n\n{body}" if body else title
    return body, title


def _tidy(text: str) -> str:
    lines = (
        "\t".join(" ".join(cell.split()) for cell in line.split("\t")).strip() for line in text.split("\n")
    )
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


def read_epub(path: str, budget: TextBudget) -> ReadMeta:
    """Chapters in reading (spine) order, each converted like an HTML page."""
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
    data, complete = read_bounded(path, budget.limit * RTF_BYTES_PER_CHAR)
    if not data.lstrip().startswith(b"{\\rtf"):
        raise ExtractionError("Damaged RTF: the file does not start with an RTF header")
    if not complete:
        budget.mark_truncated()
    text = rtf_to_text(data.decode("latin-1"), errors="replace")
    budget.add(_BLANK_RUNS.sub("\n\n", text.replace("\r\n", "\n")).strip())
    return ReadMeta()
