"""Every extractor on a small real file the test writes, and every way a file can refuse to be read."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import docx
import openpyxl
import pytest
from ebooklib import epub
from odf import dc
from odf.opendocument import OpenDocumentText
from odf.text import H, P
from pptx import Presentation
from pptx.util import Inches
from pypdf import PdfReader, PdfWriter
from reportlab.pdfgen import canvas

from engine.errors import ExtractionError, InvalidInput
from engine.indexing.extract import BINARY_NOTE, VANISHED, Extracted, extract

FRENCH = "“Le café coûte 3 €”, dit-elle. Voilà une crème brûlée à emporter; très économique.\n"
JAPANESE = "日本語のテキストです。これはテストの文章で、文字コードの判定を確認します。\n"


def write_pdf(path: Path, lines: list[str], title: str | None = None) -> Path:
    pdf = canvas.Canvas(str(path))
    if title:
        pdf.setTitle(title)
    for line in lines:
        pdf.drawString(72, 720, line)
        pdf.showPage()
    pdf.save()
    return path


def encrypt_pdf(source: Path, target: Path, user_password: str) -> Path:
    writer = PdfWriter(clone_from=PdfReader(source))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="AES-256")
    with open(target, "wb") as handle:
        writer.write(handle)
    return target


def test_utf8_text_is_read_as_text(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Buy milk.\r\nCall the plumber about the boiler.\n", encoding="utf-8")
    result = extract(str(path))
    assert result.text == "Buy milk.\nCall the plumber about the boiler.\n"
    assert (result.doc_type, result.title, result.truncated, result.note) == ("text", None, False, None)


def test_cp1252_text_is_decoded_with_its_accents_and_euro_sign(tmp_path):
    path = tmp_path / "menu.txt"
    path.write_bytes(FRENCH.encode("cp1252"))
    assert extract(str(path)).text == FRENCH


def test_utf16_text_with_bom_is_decoded(tmp_path):
    path = tmp_path / "export.txt"
    path.write_bytes(("Invoice 2024-117\n" + FRENCH).encode("utf-16"))
    assert extract(str(path)).text == "Invoice 2024-117\n" + FRENCH


def test_utf16_text_without_bom_is_not_mistaken_for_binary(tmp_path):
    path = tmp_path / "windows-export.txt"
    path.write_bytes("Serial numbers for the office laptops\n".encode("utf-16-le"))
    assert extract(str(path)).text == "Serial numbers for the office laptops\n"


def test_shift_jis_text_is_decoded(tmp_path):
    path = tmp_path / "memo.txt"
    path.write_bytes((JAPANESE * 2).encode("shift_jis"))
    assert extract(str(path)).text == JAPANESE * 2


def test_markdown_title_is_its_first_heading_outside_code(tmp_path):
    path = tmp_path / "plan.md"
    path.write_text("```\n# not a heading\n```\n\n## Garden plan 2025 ##\n\nTomatoes by the fence.\n")
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("markdown", "Garden plan 2025")
    assert "Tomatoes by the fence." in result.text


def test_markdown_front_matter_title_wins(tmp_path):
    path = tmp_path / "post.md"
    path.write_text('---\ntitle: "Trip to Lisbon"\n---\n\n# Day one\n')
    assert extract(str(path)).title == "Trip to Lisbon"


def test_source_code_is_recognised_by_extension_and_by_file_name(tmp_path):
    script = tmp_path / "backup.rs"
    script.write_text('fn main() { println!("backup"); }\n')
    makefile = tmp_path / "Makefile"
    makefile.write_text("all:\n\tcc -o app main.c\n")
    assert extract(str(script)).doc_type == "code"
    assert extract(str(makefile)).doc_type == "code"
    assert "cc -o app" in extract(str(makefile)).text


def test_csv_and_json_are_read_as_text_with_their_own_kind(tmp_path):
    table = tmp_path / "people.csv"
    table.write_text("name,city\nAda,London\n")
    data = tmp_path / "settings.json"
    data.write_text(json.dumps({"theme": "dark"}))
    assert (extract(str(table)).doc_type, extract(str(table)).text) == ("csv", "name,city\nAda,London\n")
    assert extract(str(data)).doc_type == "json"


def test_html_keeps_title_and_paragraphs_but_drops_scripts_and_styles(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Boiler manual</title><style>p{color:red}</style></head><body>"
        "<script>var secret = 1;</script><h1>Safety</h1><p>Turn the <b>gas</b> off first.</p>"
        "<table><tr><td>Model</td><td>X200</td></tr></table></body></html>"
    )
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("html", "Boiler manual")
    assert result.text == "Boiler manual\n\nSafety\n\nTurn the gas off first.\n\nModel\tX200"


def test_pdf_text_and_metadata_title_are_extracted(tmp_path):
    path = write_pdf(
        tmp_path / "report.pdf", ["Revenue grew twelve percent", "Costs fell"], title="Q3 report"
    )
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("pdf", "Q3 report")
    assert "Revenue grew twelve percent" in result.text and "Costs fell" in result.text


def test_pdf_encrypted_with_a_password_is_refused_with_a_reason(tmp_path):
    plain = write_pdf(tmp_path / "plain.pdf", ["Salary review"])
    locked = encrypt_pdf(plain, tmp_path / "locked.pdf", user_password="hunter2")
    with pytest.raises(ExtractionError) as raised:
        extract(str(locked))
    assert raised.value.reason.lower().startswith("encrypted pdf")


def test_pdf_encrypted_only_against_editing_opens_with_the_empty_password(tmp_path):
    plain = write_pdf(tmp_path / "plain.pdf", ["Salary review"])
    restricted = encrypt_pdf(plain, tmp_path / "restricted.pdf", user_password="")
    assert "Salary review" in extract(str(restricted)).text


def test_damaged_pdf_raises_extraction_error(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage")
    with pytest.raises(ExtractionError) as raised:
        extract(str(path))
    assert raised.value.reason.startswith("Damaged PDF")


def test_docx_paragraphs_tables_and_title_are_extracted_in_order(tmp_path):
    document = docx.Document()
    document.core_properties.title = "Lease agreement"
    document.add_paragraph("The tenant pays on the first of the month.")
    table = document.add_table(rows=2, cols=2)
    for row, (key, value) in zip(table.rows, [("Rent", "950"), ("Deposit", "1900")], strict=False):
        row.cells[0].text, row.cells[1].text = key, value
    document.add_paragraph("Signed in Leeds.")
    path = tmp_path / "lease.docx"
    document.save(str(path))
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("docx", "Lease agreement")
    assert (
        result.text
        == "The tenant pays on the first of the month.\nRent\t950\nDeposit\t1900\nSigned in Leeds."
    )


def test_damaged_docx_is_reported_as_not_a_zip_archive(tmp_path):
    path = tmp_path / "contract.docx"
    path.write_bytes(b"this was never a word document")
    with pytest.raises(ExtractionError) as raised:
        extract(str(path))
    assert raised.value.reason == "Damaged DOCX: not a valid zip archive"


def test_zip_that_is_not_a_workbook_raises_extraction_error_not_a_library_error(tmp_path):
    path = tmp_path / "budget.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    with pytest.raises(ExtractionError) as raised:
        extract(str(path))
    assert raised.value.reason.startswith("Damaged XLSX: ")


def test_xlsx_sheets_become_named_tab_separated_rows(tmp_path):
    workbook = openpyxl.Workbook()
    workbook.properties.title = "Household budget"
    sheet = workbook.active
    sheet.title = "January"
    sheet.append(["Item", "Cost"])
    sheet.append(["Rent", 950.0])
    sheet.append([None, None])
    workbook.create_sheet("February").append(["Rent", 975])
    path = tmp_path / "budget.xlsx"
    workbook.save(path)
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("spreadsheet", "Household budget")
    assert result.text == "Sheet: January\nItem\tCost\nRent\t950\n\nSheet: February\nRent\t975"


def test_pptx_slide_texts_and_speaker_notes_are_extracted(tmp_path):
    presentation = Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[5])
    slide.shapes.title.text = "Roadmap"
    slide.shapes.add_textbox(
        Inches(1), Inches(2), Inches(4), Inches(1)
    ).text_frame.text = "Ship search in May"
    slide.notes_slide.notes_text_frame.text = "Mention the beta users"
    path = tmp_path / "roadmap.pptx"
    presentation.save(str(path))
    result = extract(str(path))
    assert result.doc_type == "presentation"
    assert result.text == "Slide 1\nRoadmap\nShip search in May\nNotes: Mention the beta users"


def test_odt_headings_paragraphs_and_title_are_extracted(tmp_path):
    document = OpenDocumentText()
    document.meta.addElement(dc.Title(text="Minutes"))
    document.text.addElement(H(outlinelevel=1, text="Board meeting"))
    document.text.addElement(P(text="The roof repair was approved."))
    path = tmp_path / "minutes.odt"
    document.save(str(path))
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("odt", "Minutes")
    assert result.text == "Board meeting\nThe roof repair was approved."


def test_epub_chapters_and_title_are_extracted(tmp_path):
    book = epub.EpubBook()
    book.set_identifier("sensetree-test")
    book.set_title("The Lighthouse")
    book.set_language("en")
    chapter = epub.EpubHtml(title="One", file_name="one.xhtml", lang="en")
    chapter.content = "<html><body><h1>Chapter one</h1><p>The keeper lit the lamp.</p></body></html>"
    book.add_item(chapter)
    book.toc = (chapter,)
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = [chapter]
    path = tmp_path / "lighthouse.epub"
    epub.write_epub(str(path), book)
    result = extract(str(path))
    assert (result.doc_type, result.title) == ("epub", "The Lighthouse")
    assert "Chapter one\n\nThe keeper lit the lamp." in result.text


def test_rtf_written_by_hand_is_converted_to_text(tmp_path):
    path = tmp_path / "letter.rtf"
    path.write_bytes(
        rb"{\rtf1\ansi\ansicpg1252{\fonttbl\f0\fswiss Helvetica;}"
        rb"\f0 Dear Sir,\par Caf\'e9 bill attached.\par}"
    )
    result = extract(str(path))
    assert result.doc_type == "rtf"
    assert result.text == "Dear Sir,\nCafé bill attached."


def test_binary_file_is_catalogued_by_name_only(tmp_path):
    path = tmp_path / "firmware.blob"
    path.write_bytes(bytes(range(256)) * 4)
    assert extract(str(path)) == Extracted("", "binary", None, False, BINARY_NOTE)


def test_known_binary_extension_is_not_read_at_all(tmp_path):
    path = tmp_path / "holiday.jpg"
    path.write_text("looks like text but is named as a photo")
    assert extract(str(path)).doc_type == "binary"


def test_unknown_extension_with_text_inside_is_read_as_text(tmp_path):
    path = tmp_path / "README.first"
    path.write_text("Install the drivers before plugging in the printer.")
    assert extract(str(path)).text == "Install the drivers before plugging in the printer."


def test_vanished_file_raises_extraction_error_with_reason(tmp_path):
    with pytest.raises(ExtractionError) as raised:
        extract(str(tmp_path / "gone.docx"))
    assert raised.value.reason == VANISHED


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions and a non-root user"
)
def test_unreadable_file_raises_permission_denied(tmp_path):
    path = tmp_path / "private.txt"
    path.write_text("secret")
    path.chmod(0)
    with pytest.raises(ExtractionError) as raised:
        extract(str(path))
    assert raised.value.reason.startswith("Permission denied")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")
def test_named_pipe_is_refused_instead_of_blocking_forever(tmp_path):
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    with pytest.raises(ExtractionError) as raised:
        extract(str(pipe))
    assert raised.value.reason.startswith("Not a regular file")


def test_folder_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ExtractionError, match="folder"):
        extract(str(tmp_path))


def test_long_text_is_capped_with_a_visible_note(tmp_path):
    path = tmp_path / "log.txt"
    path.write_text("x" * 5_000)
    result = extract(str(path), max_chars=1_000)
    assert (len(result.text), result.truncated) == (1_000, True)
    assert result.note == "Text truncated at 1,000 characters; the rest of this 5.0 KB file was not read."


def test_huge_sparse_text_file_is_read_only_as_far_as_the_cap(tmp_path):
    path = tmp_path / "huge.log"
    with open(path, "wb") as handle:
        handle.write(b"boot ok\n" * 10_000)
        handle.truncate(4 * 1024**3)  # 4 GiB, sparse: reading it whole would exhaust memory
    result = extract(str(path), max_chars=2_000)
    assert (result.doc_type, result.truncated) == ("text", True)
    assert result.text == ("boot ok\n" * 250)


def test_spreadsheet_reading_stops_at_the_cap(tmp_path):
    workbook = openpyxl.Workbook()
    for number in range(2_000):
        workbook.active.append([f"row {number}", number])
    path = tmp_path / "big.xlsx"
    workbook.save(path)
    result = extract(str(path), max_chars=500)
    assert (len(result.text), result.truncated) == (500, True)
    assert result.note is not None and result.note.startswith("Text truncated at 500 characters")


def test_cap_below_one_character_is_invalid_input(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("a")
    with pytest.raises(InvalidInput):
        extract(str(path), max_chars=0)
