"""Every reading Details shows is cut visibly at CHARS_SHOWN (readings.py): a song's tags can hold a whole
lyric sheet, and the box shows the start and says there is more, as it does for OCR text and captions."""

from __future__ import annotations

from engine.indexing import metadata, readings


def test_a_files_own_tags_are_cut_visibly_like_every_other_reading(monkeypatch):
    lyrics = "Lyrics: " + "la " * 2_000
    monkeypatch.setattr(metadata, "about", lambda path: lyrics)
    found = readings.readings("/music/song.mp3", None, ocr=None, media=None)  # type: ignore[arg-type]
    assert [r.label for r in found] == ["Tags"]
    assert found[0].text == readings.shown(lyrics) and found[0].text.endswith(" …")
    assert len(found[0].text) <= readings.CHARS_SHOWN + 2
