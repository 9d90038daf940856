"""Word documents (DOCX, Office Open XML): paragraphs and tables of the body, in reading order.

The other office formats have a module each (spreadsheet.py, slides.py, opendocument.py), so reading a
DOCX imports python-docx alone: openpyxl (with numpy), python-pptx and odfpy cost a reading process
(engine/indexing/extract_process.py) or the indexer ~0.35 s to import for files it may never meet.
Each reader stops as soon as the text budget is spent; a table row becomes one tab-separated line.
"""

from __future__ import annotations

import docx
from docx.table import Table

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
