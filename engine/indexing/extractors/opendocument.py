"""The OpenDocument family (ODT, ODS, ODP): headings and paragraphs in order, table rows as tab-separated
lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from odf import teletype
from odf.dc import Title as OdfTitle
from odf.namespaces import TABLENS, TEXTNS
from odf.opendocument import load as load_odf
from odf.text import P as OdfParagraph

from engine.indexing.extractors.base import ReadMeta, TextBudget, clean_title

_ODF_PARAGRAPHS = {(TEXTNS, "p"), (TEXTNS, "h")}
_ODF_ROW = (TABLENS, "table-row")
_ODF_CELLS = {(TABLENS, "table-cell"), (TABLENS, "covered-table-cell")}


def read_odf(path: str, budget: TextBudget) -> ReadMeta:
    """ODT, ODS and ODP: headings and paragraphs in order; table rows as tab-separated lines."""
    document = load_odf(path)
    for line in _odf_lines(document.body):
        if line and not budget.add(line):
            break
    titles = document.meta.getElementsByType(OdfTitle)
    return ReadMeta(title=clean_title(teletype.extractText(titles[0])) if titles else None)


def _odf_lines(root: Any) -> Iterator[str]:
    stack = [root]
    while stack:
        node = stack.pop()
        qname = getattr(node, "qname", None)
        if qname in _ODF_PARAGRAPHS:
            yield teletype.extractText(node).strip()
        elif qname == _ODF_ROW:
            cells = [
                _odf_cell_text(cell) for cell in node.childNodes if getattr(cell, "qname", None) in _ODF_CELLS
            ]
            yield "\t".join(cells).rstrip("\t")
        else:
            stack.extend(reversed(getattr(node, "childNodes", [])))


def _odf_cell_text(cell: Any) -> str:
    return " ".join(
        " ".join(teletype.extractText(p).split()) for p in cell.getElementsByType(OdfParagraph)
    ).strip()
