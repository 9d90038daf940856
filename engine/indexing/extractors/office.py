"""Office documents: DOCX, XLSX, PPTX (Office Open XML) and the OpenDocument family (ODT/ODS/ODP).

Each reader walks the document in reading order and stops as soon as the text budget is spent, so a
workbook with a million rows costs no more than the rows that fit. Tables everywhere become one line
per row with tab-separated cells, which keeps a row's facts together in one chunk.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import Any

import docx
import openpyxl
from docx.table import Table
from odf import teletype
from odf.dc import Title as OdfTitle
from odf.namespaces import TABLENS, TEXTNS
from odf.opendocument import load as load_odf
from odf.text import P as OdfParagraph
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE

from engine.indexing.extractors.base import ReadMeta, TextBudget, clean_title


def read_docx(path: str, budget: TextBudget) -> ReadMeta:
    """Paragraphs and tables of the body, in document order."""
    document = docx.Document(path)
    for block in document.iter_inner_content():
        text = _docx_table_text(block) if isinstance(block, Table) else block.text
        if not budget.add(text.strip()):
            break
    return ReadMeta(title=clean_title(document.core_properties.title))


def _docx_table_text(table: Table) -> str:
    lines = []
    for row in table.rows:
        cells, previous = [], None
        for cell in row.cells:
            if cell._tc is not previous:  # a merged cell is reported once per grid column it spans
                cells.append(" ".join(cell.text.split()))
            previous = cell._tc
        lines.append("\t".join(cells).rstrip("\t"))
    return "\n".join(line for line in lines if line)


def read_xlsx(path: str, budget: TextBudget) -> ReadMeta:
    """Each sheet as `Sheet: name` followed by its non-empty rows, tab-separated."""
    workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        title = clean_title(workbook.properties.title)
        for sheet in workbook.worksheets:
            if not budget.add(f"Sheet: {sheet.title}", sep="\n\n") or not _add_rows(
                sheet.iter_rows(values_only=True), budget
            ):
                break
    finally:
        workbook.close()
    return ReadMeta(title=title)


def _add_rows(rows: Iterable[tuple[Any, ...]], budget: TextBudget) -> bool:
    for row in rows:
        cells = [_cell_text(value) for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if cells and not budget.add("\t".join(cells)):
            return False
    return True


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return " ".join(str(value).split())


def read_pptx(path: str, budget: TextBudget) -> ReadMeta:
    """Per slide: `Slide n`, the text of every shape (groups and tables included), then its notes."""
    presentation = Presentation(path)
    for number, slide in enumerate(presentation.slides, start=1):
        lines = [f"Slide {number}", *_shape_texts(slide.shapes)]
        notes_frame = slide.notes_slide.notes_text_frame if slide.has_notes_slide else None
        notes = notes_frame.text.strip() if notes_frame is not None else ""
        if notes:
            lines.append(f"Notes: {notes}")
        if not budget.add("\n".join(lines).replace("\v", "\n"), sep="\n\n"):
            break
    return ReadMeta(title=clean_title(presentation.core_properties.title))


def _shape_texts(shapes: Iterable[Any]) -> Iterator[str]:
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _shape_texts(shape.shapes)
        elif shape.has_text_frame and shape.text_frame.text.strip():
            yield shape.text_frame.text.strip()
        elif getattr(shape, "has_table", False):
            for row in shape.table.rows:
                yield "\t".join(" ".join(cell.text.split()) for cell in row.cells).rstrip("\t")


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
