"""Senses people can trust: no junk title, a scan says it is a scan, and the sense follows a rename."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from engine.embed import HashingEmbedder
from engine.indexing.extract import extract
from engine.indexing.extractors.base import clean_title, is_junk_title
from engine.indexing.extractors.pdf import NO_TEXT_LAYER
from engine.indexing.qualify import SCANNED_PDF, extractive_sense
from engine.indexing.rename_sense import renamed_sense
from engine.txn import MIGRATIONS, TxnService
from tests.indexing.test_extract import write_pdf


@pytest.mark.parametrize(
    "title",
    [
        "untitled",
        "Untitled-1",
        "Untitled document",
        "untitled.pdf",
        "Microsoft Word - Lease renewal.docx",
        "Microsoft PowerPoint - deck.pptx",
        "Document1",
        "Book1",
        "PowerPoint Presentation",
        "Slide 1",
        "report-final.pdf",
        r"C:\Users\bob\Desktop\scan.doc",
        "/tmp/tmp8x2k.pdf",
        "Title",
        "(null)",
        "---",
    ],
)
def test_titles_a_program_filled_in_are_junk(title):
    assert is_junk_title(title) and clean_title(title) is None


@pytest.mark.parametrize(
    "title",
    ["Q3 report", "The Document Management Plan", "Untitled Symphony", "Draft budget 2024", "Tempest"],
)
def test_titles_people_wrote_are_kept(title):
    assert clean_title(title) == title


def write_scanned_pdf(path: Path) -> Path:
    """Two pages of drawing and no text at all: what a scanner without OCR produces."""
    pdf = canvas.Canvas(str(path))
    for _ in range(2):
        pdf.rect(72, 72, 400, 600, fill=1)
        pdf.showPage()
    pdf.save()
    return path


def test_a_pdf_titled_untitled_gives_a_sense_without_the_junk_title(tmp_path):
    path = write_pdf(
        tmp_path / "lease.pdf", ["Lease of flat 4, Elm Street, for twelve months."], title="untitled"
    )
    extracted = extract(str(path))
    assert extracted.title is None
    sense = extractive_sense("lease.pdf", extracted.text, extracted.title, extracted.doc_type)
    assert sense == "lease.pdf: Lease of flat 4, Elm Street, for twelve months."
    assert "untitled" not in sense.lower()


def test_a_junk_title_passed_to_the_fallback_is_ignored():
    assert extractive_sense(
        "memo.docx", "Meeting moved to Friday.", "Microsoft Word - memo.docx", "docx"
    ) == ("memo.docx: Meeting moved to Friday.")


def test_the_extractive_sense_of_markdown_reads_as_text():
    sense = extractive_sense(
        "seoul.md", "# Seoul — day 1\n\nBreakfast at **Gwangjang** market.", None, "markdown"
    )
    assert sense == "seoul.md: Seoul — day 1 Breakfast at Gwangjang market."


def test_a_scanned_pdf_says_it_has_no_text_layer_instead_of_an_empty_sense(tmp_path, engine):
    root = tmp_path / "Scans"
    root.mkdir()
    path = write_scanned_pdf(root / "scan_0042.pdf")
    extracted = extract(str(path))
    assert (extracted.text, extracted.note) == ("", NO_TEXT_LAYER)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    details = engine.path_details(str(path))
    assert details.sense == SCANNED_PDF
    assert "scanned pdf: no text layer" in details.sense.lower()


def test_a_scanned_pdf_with_a_real_title_keeps_it():
    assert extractive_sense("a.pdf", "", "Lease 2024", "pdf") == f"Lease 2024. {SCANNED_PDF}"


def test_renamed_sense_rewrites_the_whole_file_name_only():
    assert (
        renamed_sense("scan_0042.txt: Rental agreement.", "scan_0042.txt", "lease.txt")
        == "lease.txt: Rental agreement."
    )
    assert renamed_sense("Notes on the budget.", "notes.md", "shopping.md") is None


@pytest.fixture
def indexed(tmp_path, sensetree_home):
    from engine.engine import Engine

    root = tmp_path / "Docs"
    root.mkdir()
    (root / "scan_0042.txt").write_text("Rental agreement renewal for flat 4. The tenant renews for a year.")
    (root / "pinned.txt").write_text("Meeting notes from Monday.")
    engine = Engine(sensetree_home, embedder=HashingEmbedder())
    engine.parts.db.migrate(MIGRATIONS)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    yield engine, root
    engine.running.close()


def test_the_sense_follows_a_rename_applied_as_a_plan_and_back_on_undo(indexed):
    engine, root = indexed
    old, new = f"{root}/scan_0042.txt", f"{root}/lease-elm-street.txt"
    assert engine.parts.indexer.sense_of(old)[0].startswith("scan_0042.txt: Rental agreement renewal")
    embedded = engine.parts.embedder.embedded
    service = TxnService(
        engine.parts.db, engine.running.home, engine.running.roots, engine.parts.indexer, None
    )
    plan = service.propose_plan(
        "Clearer name", [{"kind": "rename", "old_path": old, "new_path": new, "reason": "r"}]
    )
    assert service.apply_action_plan(plan["transaction_id"]).applied == 1
    sense, pinned = engine.parts.indexer.sense_of(new)
    assert sense.startswith("lease-elm-street.txt: Rental agreement renewal") and not pinned
    assert "scan_0042" not in sense
    assert engine.parts.embedder.embedded == embedded  # a rename still embeds nothing
    service.undo_transaction(plan["transaction_id"])
    assert engine.parts.indexer.sense_of(old)[0].startswith("scan_0042.txt: Rental agreement renewal")


def test_a_pinned_sense_is_left_as_the_person_wrote_it_on_rename(indexed):
    engine, root = indexed
    old, new = f"{root}/pinned.txt", f"{root}/monday.txt"
    engine.set_file_summary(old, "pinned.txt holds Monday's meeting notes.")
    engine.parts.index.drain()
    service = TxnService(
        engine.parts.db, engine.running.home, engine.running.roots, engine.parts.indexer, None
    )
    plan = service.propose_plan(
        "Rename", [{"kind": "rename", "old_path": old, "new_path": new, "reason": "r"}]
    )
    service.apply_action_plan(plan["transaction_id"])
    assert engine.parts.indexer.sense_of(new) == ("pinned.txt holds Monday's meeting notes.", True)
