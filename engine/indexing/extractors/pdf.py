"""PDF text via pypdf, page by page until the budget is spent.

An encrypted PDF is opened with the empty password (many are "encrypted" only to restrict printing);
one that needs a real password is reported, never guessed at. A page that pypdf cannot parse is
skipped so one bad page does not lose the whole document. Pages with no text layer (scans) are listed
in `scan_pages`; the OCR phase reads them in the background (ocr_phase.py).
"""

from __future__ import annotations

import logging

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError

from engine.errors import ExtractionError
from engine.indexing.extractors.base import ReadMeta, TextBudget, clean_title

log = logging.getLogger(__name__)

NEEDS_PASSWORD = "Encrypted PDF: it needs a password to open, so its text cannot be read"
NO_TEXT_LAYER = "This PDF has no text layer (probably a scan); catalogued by name only"


def read_pdf(path: str, budget: TextBudget) -> ReadMeta:
    reader = PdfReader(path)
    _unlock(reader)
    pages = len(reader.pages)
    failed = 0
    scans: list[int] = []
    for number, page in enumerate(reader.pages, start=1):
        try:
            text = page.extract_text() or ""
        except Exception as exc:  # noqa: BLE001 - pypdf raises many types for one malformed page
            failed += 1
            log.debug("page %d of %s could not be read: %s", number, path, exc)
            continue
        if not text.strip():
            scans.append(number - 1)
        if not budget.add(text.strip(), sep="\n\n"):
            break
    if pages and failed == pages:
        raise ExtractionError("Damaged PDF: none of its pages could be read")
    note = NO_TEXT_LAYER if pages and not budget.text().strip() else None
    return ReadMeta(title=_title(reader), note=note, scan_pages=tuple(scans))


def _unlock(reader: PdfReader) -> None:
    if not reader.is_encrypted:
        return
    try:
        unlocked = reader.decrypt("")
    except DependencyError as exc:
        raise ExtractionError("Encrypted PDF: decrypting it needs the 'cryptography' package") from exc
    except FileNotDecryptedError as exc:
        raise ExtractionError(NEEDS_PASSWORD) from exc
    if unlocked == PasswordType.NOT_DECRYPTED:
        raise ExtractionError(NEEDS_PASSWORD)


def _title(reader: PdfReader) -> str | None:
    try:
        metadata = reader.metadata
        return clean_title(metadata.title) if metadata is not None else None
    except Exception as exc:  # noqa: BLE001 - a broken info dictionary must not lose the text
        log.debug("PDF metadata unreadable: %s", exc)
        return None
