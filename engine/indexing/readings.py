"""What Details shows a file was read from, beyond its text: a photo's caption or a recording's transcript
(from the vision or transcription endpoint), a photo's EXIF, a song's tags, the words OCR found in a
picture or on each scanned page, each with where it came from, so a person can tell what SenseTree saw
from what it guessed. One list for all of them (`PathDetails.readings`, one box in Details). Cheap by
design: metadata is read from the header again (as indexing does), captions, transcripts and OCR text
come from their caches by content hash; nothing here runs Tesseract or calls an endpoint."""

from __future__ import annotations

import os

from engine.indexing import metadata
from engine.indexing.media_phase import CAPTION, MediaStore
from engine.indexing.ocr_phase import OcrStore
from engine.indexing.photo_ocr import NO_TEXT, is_photo
from engine.indexing.results import Reading

PAGES_SHOWN = 20
CHARS_SHOWN = 2_000
SOURCES = {
    "photo_meta": ("Photo details", "its image header and EXIF, read by Pillow"),
    "audio_meta": ("Tags", "its own tags, read by mutagen"),
}


def readings(path: str, digest: str | None, ocr: OcrStore, media: MediaStore) -> list[Reading]:
    """The file's caption or transcript, metadata and OCR text, labelled by where each came from (empty
    for most files)."""
    found = media_readings(media, digest)
    reader = metadata.READERS.get(os.path.splitext(path)[1].lower())
    if reader is not None:
        said = metadata.about(path)
        if said:
            label, source = SOURCES.get(reader[0], ("Metadata", "the file's own header"))
            found.append(Reading(label=label, source=source, text=shown(said)))
    if digest:
        found += ocr_readings(path, ocr.pages(digest))
    return found


def media_readings(media: MediaStore, digest: str | None) -> list[Reading]:
    """The caption or transcript cached for this content, its source the endpoint's model and address
    (media_phase.py); an endpoint's refusal is shown with its reason."""
    cached = media.latest(digest) if digest else None
    if cached is None:
        return []
    label = "Caption" if cached.kind == CAPTION else "Transcript"
    text = shown(cached.text) if cached.error is None else f"No {cached.kind}: {cached.error}"
    return [Reading(label=label, source=cached.source, text=text)]


def shown(text: str) -> str:
    """At most CHARS_SHOWN characters, cut visibly (the agent's read_file and the file have the rest)."""
    return text if len(text) <= CHARS_SHOWN else text[:CHARS_SHOWN].rstrip() + " …"


def ocr_readings(path: str, pages: list[tuple[int, str, str | None]]) -> list[Reading]:
    if is_photo(path):
        if not pages:
            return []
        _, text, error = pages[0]
        source = "OCR by Tesseract, after a quick look found text" if text else "OCR by Tesseract"
        said = shown(text) or error or NO_TEXT
        return [Reading(label="Text in the picture", source=source, text=said)]
    read = [
        Reading(
            label=f"Page {page + 1}",
            source="OCR by Tesseract: this page has no text layer, only a picture",
            text=shown(text) or f"(no text found{': ' + error if error else ''})",
        )
        for page, text, error in pages[:PAGES_SHOWN]
    ]
    if len(pages) > PAGES_SHOWN:
        rest = len(pages) - PAGES_SHOWN
        read.append(Reading(label="More pages", source="OCR by Tesseract", text=f"{rest} more page(s) read"))
    return read
