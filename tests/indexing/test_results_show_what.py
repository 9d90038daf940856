"""Results show what they are (issue 33, item 5): a hit in a scanned PDF names the page OCR read it from,
a picture has a small thumbnail the engine makes once, and Details lists what was read from the file
besides its text (EXIF, OCR text), each with where it came from."""

from __future__ import annotations

import base64
import io

import pytest

from engine.agent import Call, ScriptedModel
from engine.config import ReasoningSettings
from engine.errors import OutOfBounds
from engine.indexing import ocr, thumbnails
from tests.indexing.helpers import SAMPLE, make_engine, write_docs

pytestmark = pytest.mark.skipif(not ocr.available(), reason=ocr.MISSING)
Image = pytest.importorskip("PIL.Image")

from tests.indexing.scans import write_scan  # noqa: E402 (needs Pillow)
from tests.indexing.test_photo_ocr import photo_of_a_notice  # noqa: E402

LEASE = [
    ["Tenancy agreement", "Flat 4 Elm Street"],
    ["Clause 7 pets", "One tortoise named Gideon is allowed"],
    ["Signed by both parties"],
]


def test_a_hit_in_a_scanned_pdf_names_its_page_and_details_show_each_page_read_by_ocr(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    scan = write_scan(root / "lease-scan.pdf", LEASE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        hit = engine.semantic_search("tortoise Gideon", limit=1)[0]
        keyword_hit = engine.keyword_search("tortoise Gideon", limit=1)[0]
        text_hit = engine.semantic_search("sourdough", limit=1)[0]
        details = engine.path_details(str(scan))
    finally:
        engine.running.close()
    assert hit.path == str(scan) and hit.page == 2 and keyword_hit.page == 2
    assert text_hit.page is None  # a file with text of its own has no page to name
    pages = {r.label: r for r in details.readings}
    assert "Gideon" in pages["Page 2"].text and "OCR" in pages["Page 2"].source
    assert list(pages) == ["Page 1", "Page 2", "Page 3"]


def test_a_photo_has_a_cached_thumbnail_and_details_say_what_was_read_from_where(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    photo = photo_of_a_notice(root / "IMG_2304.jpg")
    Image.new("L", (10_000, 10_000), 255).save(root / "poster.png", compress_level=1)  # 100 megapixels
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        made = engine.file_thumbnail(str(photo))
        again = engine.file_thumbnail(str(photo))
        poster = engine.file_thumbnail(str(root / "poster.png"))
        text_file = engine.file_thumbnail(str(root / "recipes" / "bread.txt"))
        with pytest.raises(OutOfBounds):
            engine.file_thumbnail(str(tmp_path / "elsewhere.jpg"))
        details = engine.path_details(str(photo))
    finally:
        engine.running.close()
    picture = Image.open(io.BytesIO(base64.b64decode(made.data_url.split(",", 1)[1])))
    assert picture.format == "JPEG" and max(picture.size) <= thumbnails.SIDE
    assert again == made and len(list((sensetree_home / "thumbnails").iterdir())) == 1
    assert poster is None and text_file is None  # too large to decode whole; no picture at all
    readings = {r.label: r for r in details.readings}
    assert (
        "BAKERY" in readings["Text in the picture"].text
        and "Tesseract" in readings["Text in the picture"].source
    )
    assert "3000 × 2000" in readings["Photo details"].text and "EXIF" in readings["Photo details"].source


def test_a_chat_source_in_a_scanned_pdf_names_its_page(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    scan = write_scan(root / "lease-scan.pdf", LEASE)
    model = ScriptedModel(
        [[Call("search_files", {"query": "tortoise Gideon"})], "Gideon may stay (lease-scan.pdf)."]
    )
    engine = make_engine(sensetree_home, chat_model=model)
    engine.running.settings.reasoning = ReasoningSettings(enabled=True, model="scripted")
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        result = engine.chat_with_assistant([{"role": "user", "content": "May I keep my tortoise?"}])
    finally:
        engine.running.close()
    sources = {s["path"]: s for s in result.sources}
    assert sources[str(scan)]["page"] == 2
    assert all("page" not in s for path, s in sources.items() if path != str(scan))  # the old shape elsewhere
