"""Large and hostile inputs for every extractor, built on the spot from one seeded vocabulary (nothing is
downloaded): each is made to cost its reader as much as the reader allows (tag-dense HTML, one huge PDF
content stream, document XML that passes the zip checks, a spreadsheet of 200,000 cells, …)."""

from __future__ import annotations

import random
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from tests.indexing.bombs import CONTENT_TYPES, RELS, W

_VOCABULARY = [
    "".join(random.Random(i).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(3 + i % 7))
    for i in range(800)
]


def words(count: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(_VOCABULARY) for _ in range(count))


def _repeat(text: str, size: int) -> str:
    return text * (size // len(text) + 1)


def text_file(path: Path, size: int = 16_000_000) -> Path:
    path.write_text(_repeat(words(20_000) + "\n\n", size)[:size])
    return path


def markdown_file(path: Path, size: int = 16_000_000) -> Path:
    path.write_text("# A long note\n\n" + _repeat(f"## {words(3)}\n\n{words(300)}\n\n", size)[:size])
    return path


def html_file(path: Path, size: int = 500_000) -> Path:
    """Tag-dense, every word its own element, nested as pages are (sections of divs of paragraphs)."""
    paragraphs = "".join(f"<p><b>{w}</b> <i>{w}</i></p>" for w in words(50).split())
    section = "<section>" + "".join(f"<div>{paragraphs}</div>" for _ in range(40)) + "</section>"
    body = section * (size // len(section) + 1) if size >= len(section) else f"<div>{paragraphs}</div>"
    path.write_text("<html><head><title>Dense</title></head><body>" + body + "</body></html>")
    return path


def rtf_file(path: Path, size: int = 1_000_000) -> Path:
    body = "".join(f"\\b {w}\\b0 \\par " for w in words(2_000).split())
    path.write_text("{\\rtf1\\ansi " + _repeat(body, size) + "}")
    return path


def pdf_file(path: Path, inflated: int = 100_000) -> Path:
    """One page whose content stream inflates to `inflated` bytes of text operators."""
    line = "".join(
        f"BT /F1 9 Tf 20 {700 - i % 60 * 10} Td ({w}) Tj ET\n" for i, w in enumerate(words(400).split())
    )
    stream = zlib.compress(_repeat(line, inflated)[:inflated].encode(), 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def _zip(path: Path, members: dict[str, str], stored: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(name, text, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)
    return path


def docx_file(path: Path, size: int = 4_000_000) -> Path:
    """Document XML of `size` bytes of varied text: it passes the zip checks, so python-docx parses it."""
    paragraphs = "".join(f"<w:p><w:r><w:t>{words(40, seed)}</w:t></w:r></w:p>" for seed in range(200))
    xml = f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}"><w:body>'
    xml += _repeat(paragraphs, size) + "</w:body></w:document>"
    return _zip(path, {"[Content_Types].xml": CONTENT_TYPES, "_rels/.rels": RELS, "word/document.xml": xml})


_SHEET_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


def xlsx_file(path: Path, rows: int = 5_000, columns: int = 5) -> Path:
    """One worksheet of rows x columns inline-string cells (streamed by the reader)."""
    vocabulary = words(1_000).split()
    sheet = "".join(
        f'<row r="{r}">'
        + "".join(
            f'<c t="inlineStr"><is><t>{vocabulary[(r * columns + c) % 1000]}</t></is></c>'
            for c in range(columns)
        )
        + "</row>"
        for r in range(1, rows + 1)
    )
    types = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/'
        'xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.'
        'main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    )
    return _zip(
        path,
        {
            "[Content_Types].xml": types,
            "_rels/.rels": f'<Relationships xmlns="{_PKG_REL}"><Relationship Id="rId1" '
            f'Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
            "xl/workbook.xml": f'<workbook xmlns="{_SHEET_MAIN}" xmlns:r="{_REL}"><sheets><sheet name="S" '
            'sheetId="1" r:id="rId1"/></sheets></workbook>',
            "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{_PKG_REL}"><Relationship Id="rId1" '
            f'Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
            "xl/worksheets/sheet1.xml": (
                f'<worksheet xmlns="{_SHEET_MAIN}"><sheetData>{sheet}</sheetData></worksheet>'
            ),
        },
    )


def pptx_file(path: Path, slides: int = 40) -> Path:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    layout = deck.slide_layouts[6]  # blank
    for number in range(slides):
        box = deck.slides.add_slide(layout).shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(5))
        box.text_frame.text = words(2_000, number)
    deck.save(str(path))
    return path


def odt_file(path: Path, size: int = 4_000_000) -> Path:
    office = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
    text_ns = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    paragraphs = "".join(f"<text:p>{words(40, seed)}</text:p>" for seed in range(200))
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{office}" '
        f'xmlns:text="{text_ns}" office:version="1.2"><office:body><office:text>'
        + _repeat(paragraphs, size)
        + "</office:text></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
        'opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" '
        'manifest:media-type="text/xml"/></manifest:manifest>'
    )
    members = {
        "mimetype": "application/vnd.oasis.opendocument.text",
        "content.xml": content,
        "META-INF/manifest.xml": manifest,
    }
    return _zip(path, members, stored=("mimetype",))


def epub_file(path: Path, chapters: int = 10, chapter_words: int = 10_000) -> Path:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("large")
    book.set_title("Large")
    spine: list = []
    for number in range(chapters):
        chapter = epub.EpubHtml(title=f"c{number}", file_name=f"c{number}.xhtml")
        chapter.content = (
            f"<html><body><h1>Chapter {number}</h1><p>{words(chapter_words, number)}</p></body></html>"
        )
        book.add_item(chapter)
        spine.append(chapter)
    book.toc = spine
    book.spine = spine
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    epub.write_epub(str(path), book)
    return path


def tiny(extension: str, path: Path) -> Path:
    """A small file of the same format: the baseline its large one is compared with."""
    return BUILDERS[extension][1](path)


BUILDERS: dict[str, tuple[Callable[[Path], Path], Callable[[Path], Path]]] = {
    "txt": (text_file, lambda p: text_file(p, 2_000)),
    "md": (markdown_file, lambda p: markdown_file(p, 2_000)),
    "html": (html_file, lambda p: html_file(p, 2_000)),
    "rtf": (rtf_file, lambda p: rtf_file(p, 2_000)),
    "pdf": (pdf_file, lambda p: pdf_file(p, 2_000)),
    "docx": (docx_file, lambda p: docx_file(p, 2_000)),
    "xlsx": (xlsx_file, lambda p: xlsx_file(p, 10)),
    "pptx": (pptx_file, lambda p: pptx_file(p, 1)),
    "odt": (odt_file, lambda p: odt_file(p, 2_000)),
    "epub": (epub_file, lambda p: epub_file(p, 1, 100)),
}
