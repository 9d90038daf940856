"""`path_details` tells the truth about a file's state: a failed file is not `queued`."""

from __future__ import annotations

from tests.indexing.helpers import SAMPLE, write_docs


def test_a_failed_file_is_failed_with_its_full_reason_and_not_queued(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "broken.docx").write_bytes(b"this is not a zip archive")
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    details = engine.path_details(str(root / "broken.docx"))
    assert details.status == "failed" and details.queued is False
    assert details.error == "Damaged DOCX: not a valid zip archive"


def test_a_retried_file_is_queued_until_it_is_read_again(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "broken.docx").write_bytes(b"this is not a zip archive")
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    engine.set_indexing_paused(True)
    engine.retry_indexing(str(root / "broken.docx"))
    assert engine.path_details(str(root / "broken.docx")).queued is True
