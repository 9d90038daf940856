"""Spreadsheets (XLSX): each sheet as `Sheet: name` and its non-empty rows, one tab-separated line each.

openpyxl's read-only mode streams the rows, so a workbook with a million rows costs no more than the
rows that fit in the text budget.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import openpyxl

from engine.indexing.extractors.base import ReadMeta, TextBudget, clean_title


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
