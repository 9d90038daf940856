"""Presentations (PPTX): per slide, the text of every shape (groups and tables included), then its notes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE

from engine.indexing.extractors.base import ReadMeta, TextBudget, clean_title


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
