"""The Gardener's judgement on the cases a person would check first (issue 29): a template series is
not a duplicate, the Downloads copy is the one trashed, name-only files and different photos are
never near-duplicates, unsure lines of a fix come unticked, and checks waiting on files say so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.gardener import resemble
from engine.gardener.inputs import FileInfo
from engine.gardener.keep import to_keep
from tests.gardener.planted import write

RECEIPT = """Rent receipt
Landlord: Maple Court Properties, 12 Elm Street
Tenant: Jordan Avery, flat 4B
Received the sum of {amount} EUR as rent for the month of {month} 2024.
Payment method: bank transfer, reference RENT-{ref}.
Paid on {day}. Thank you for your payment.
"""
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]
LEASE = (
    "Lease agreement between Maple Court Properties and Jordan Avery for flat 4B at 12 Elm Street. "
    "The term runs for twelve months from the first of March. The monthly rent is payable in advance "
    "by bank transfer. The tenant keeps the flat in good order, allows inspections with notice, and "
    "returns the keys at the end of the term. The deposit is held in a protected scheme.\n"
)


def _engine(tmp_path: Path, root: Path) -> Engine:
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder())
    engine.set_config({"indexing": {"qualify_with_model": False}})
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    return engine


@pytest.fixture
def home(tmp_path):
    root = tmp_path / "Home"
    for n, month in enumerate(MONTHS):
        text = RECEIPT.format(amount=1200 + 5 * n, month=month, ref=4100 + n, day=f"2024-{n + 1:02d}-01")
        write(root, f"Documents/Housing/rent-receipt-2024-{n + 1:02d}.txt", text, 1_700_000_000.0)
    write(root, "Documents/Housing/lease-agreement-2023.txt", LEASE, 1_700_000_000.0)
    write(root, "Downloads/lease-agreement-2023.txt", LEASE, 1_700_000_000.0)  # same bytes, same date
    write(root, "Documents/Housing/lease notes.txt", LEASE + "Signed copy kept in the blue folder.\n")
    for n in range(3):
        write(root, f"Software/installer-{n}.bin", os.urandom(2048))  # catalogued by name only
    engine = _engine(tmp_path, root)
    yield engine, Path(os.path.realpath(root))
    engine.running.close()


def test_a_receipt_series_is_not_a_duplicate_group(home):
    engine, root = home
    report = engine.analyze_directory(str(root))
    grouped = {p for f in report.findings if f.kind in ("near_duplicate", "version") for p in f.paths}
    assert not [p for p in grouped if "rent-receipt" in p], report.findings
    a = resemble.prepare(RECEIPT.format(amount=1200, month="March", ref=4102, day="2024-03-01"))
    b = resemble.prepare(RECEIPT.format(amount=1205, month="April", ref=4103, day="2024-04-01"))
    verdict = resemble.judge(a, b)
    assert not verdict.same and ("series" in verdict.why or "phrases" in verdict.why)


def test_the_downloads_copy_is_the_one_trashed_and_the_reason_names_both_folders(home):
    engine, root = home
    plan = engine.propose_gardener_fix(str(root), "duplicate")
    assert [(op.kind, op.old_path) for op in plan.operations] == [
        ("delete", f"{root}/Downloads/lease-agreement-2023.txt")
    ]
    reason = plan.operations[0].reason
    assert "Documents/Housing" in reason and "Downloads" in reason


def test_a_copy_with_a_line_added_is_a_near_duplicate_and_name_only_files_never_are(home):
    engine, root = home
    report = engine.analyze_directory(str(root))
    near = [f for f in report.findings if f.kind == "near_duplicate"]
    assert [sorted(f.paths) for f in near] == [
        sorted(
            [
                f"{root}/Documents/Housing/lease notes.txt",
                f"{root}/Documents/Housing/lease-agreement-2023.txt",
            ]
        )
    ]
    assert not any(".bin" in p for f in report.findings if f.kind != "stale_large" for p in f.paths)


def test_the_filed_copy_is_kept_before_a_copy_marked_or_downloaded_one_whatever_the_dates():
    def info(path: str, modified: float) -> FileInfo:
        return FileInfo(path, os.path.basename(path), os.path.dirname(path), 10, modified, "h", None, "text")

    filed = info("/h/Work/Reports/Q3 report v2 final.docx", 1.0)
    marked = info("/h/Work/Reports/Q3 report v2 final (1).docx", 2.0)
    downloaded = info("/h/Downloads/Q3 report v2 final.docx", 3.0)
    assert to_keep([marked, downloaded, filed]) is filed
    assert to_keep([marked, downloaded]) is marked  # filed beats copy-marked, copy-marked beats Downloads
    assert to_keep(
        [info("/h/Desktop/tax-return.pdf", 5.0), info("/h/Taxes/2023/tax-return.pdf", 1.0)]
    ).path == ("/h/Taxes/2023/tax-return.pdf")


def test_a_close_copy_in_a_filed_folder_comes_unticked_with_its_reason(home):
    engine, root = home
    plan = engine.propose_gardener_fix(str(root), "near_duplicate")
    assert len(plan.operations) == 1
    op = plan.operations[0]
    assert op.kind == "delete" and op.ticked is False, op
    assert "check it before trashing" in op.reason and "Documents/Housing" in op.reason


def test_checks_that_need_understood_files_say_how_many_they_wait_for(tmp_path):
    root = tmp_path / "Home"
    write(root, "Notes/a.txt", LEASE)
    engine = _engine(tmp_path, root)
    try:
        write(root, "Notes/b.txt", LEASE + "More.\n")
        write(root, "Notes/c.txt", "Another note about the garden.\n")
        engine.reindex_path(str(root / "Notes" / "b.txt"))
        engine.reindex_path(str(root / "Notes" / "c.txt"))
        report = engine.analyze_directory(str(root))
        assert report.pending == [
            "Near-duplicates, versions and misplaced files: waiting for 2 files to be understood."
        ]
        engine.parts.index.drain()
        assert engine.analyze_directory(str(root)).pending == []
    finally:
        engine.running.close()


def _picture(seed: int, size: tuple[int, int] = (320, 240)):
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (20 * seed % 255, 90, 160))
    draw = ImageDraw.Draw(image)
    for k in range(6):
        x, y = (37 * (k + 1) * (seed + 3)) % size[0], (53 * (k + 2) * (seed + 1)) % size[1]
        draw.ellipse((x, y, x + 60, y + 45), fill=((70 * k) % 255, (40 * seed) % 255, 200 - 30 * k))
    return image


def test_photos_are_judged_by_their_pixels_not_their_names(tmp_path, monkeypatch):
    root = tmp_path / "Home"
    (root / "Pictures" / "2024").mkdir(parents=True)
    (root / "Downloads").mkdir()
    for n in range(4):
        _picture(n).save(root / "Pictures" / "2024" / f"IMG_44{n:02d}.jpg", quality=92)
    _picture(1).resize((160, 120)).save(
        root / "Downloads" / "IMG_4401 small.png"
    )  # the same picture, smaller
    engine = _engine(tmp_path, root)
    real = Path(os.path.realpath(root))
    try:
        near = [f for f in engine.analyze_directory(str(real)).findings if f.kind == "near_duplicate"]
        assert [(f.keep, sorted(f.paths)) for f in near] == [
            (
                f"{real}/Pictures/2024/IMG_4401.jpg",
                sorted([f"{real}/Pictures/2024/IMG_4401.jpg", f"{real}/Downloads/IMG_4401 small.png"]),
            )
        ]
        assert not [f for f in engine.analyze_directory(str(real)).findings if f.kind == "unhelpful_name"]
    finally:
        engine.running.close()
    monkeypatch.setattr("engine.gardener.images.available", lambda: False)
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder())  # a fresh Gardener: nothing reused
    try:
        without = engine.analyze_directory(str(real)).findings
        assert not [f for f in without if f.kind == "near_duplicate"], "without Pillow no photo is guessed"
    finally:
        engine.running.close()


def test_a_resaved_pdf_with_ligatures_hyphens_and_a_dated_footer_is_the_same_document():
    import random

    from bench.gardener_set import download_copy, resaved_pdf

    text = (
        "Fluorescence imaging of the retinal field was used to follow sixty participants over two years. "
        "Those who received the supplement showed slower thinning of the nerve fibre layer than those on "
        "placebo, and the difference grew after the first winter. Side effects were mild and rare: two "
        "cases of nausea, one rash. The effect did not depend on age or sex, but was larger in smokers. "
        "We conclude that a larger trial is warranted, with longer follow-up, a wider age range and "
        "independent grading of the images by two readers who do not know the treatment allocation."
    )
    rng = random.Random(1)
    resaved, downloaded = resemble.prepare(resaved_pdf(text, rng)), resemble.prepare(download_copy(text, rng))
    original = resemble.prepare(text)
    assert resemble.judge(original, resaved).same and resemble.judge(resaved, downloaded).same
    assert resemble.judge(original, downloaded).same


def test_a_short_text_needs_more_of_its_phrases_shared():
    assert resemble.required(200) == resemble.NEAR and resemble.required(10) > 0.9
    a = resemble.prepare("Call the plumber about the kitchen tap on Monday morning")
    b = resemble.prepare("Call the plumber about the bathroom shower on Friday evening")
    assert not resemble.judge(a, b).same
