"""A song or a recording is found by its tags (title, artist, album) and says how long it is, from WAV
and MP3 files written in the test (the stdlib `wave` module, hand-made MPEG frames, tags by mutagen)."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from engine.indexing.audio_meta import media_about, spoken_duration
from tests.indexing.helpers import SAMPLE, indexed_engine, write_docs

id3 = pytest.importorskip("mutagen.id3")

MPEG_FRAME = b"\xff\xfb\x90\x64" + bytes(413)  # MPEG-1 layer III, 128 kbit/s, 44.1 kHz: 417 bytes


def write_wav(path: Path, seconds: int, **tags: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(bytes(2 * 8000 * seconds))
    from mutagen.wave import WAVE

    audio = WAVE(path)
    audio.add_tags()
    _tag(audio.tags, **tags)
    audio.save()
    return path


def write_mp3(path: Path, frames: int, **tags: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(MPEG_FRAME * frames)
    tagged = id3.ID3()
    _tag(tagged, **tags)
    tagged.save(path)
    return path


def _tag(tags, title: str = "", artist: str = "", album: str = "") -> None:
    for frame, text in ((id3.TIT2, title), (id3.TPE1, artist), (id3.TALB, album)):
        if text:
            tags.add(frame(encoding=3, text=text))


def test_a_wav_recording_says_its_duration_and_id3_tags(tmp_path):
    path = write_wav(tmp_path / "take1.wav", 3, title="Harbour Lights", artist="Mira Sol")
    assert media_about(str(path)) == "Audio duration: 3 s\nTitle: Harbour Lights\nArtist: Mira Sol"


def test_an_mp3_says_title_artist_album_and_roughly_its_length(tmp_path):
    path = write_mp3(tmp_path / "track.mp3", 200, title="Blue Ferry", artist="The Quays", album="Tidelines")
    text = media_about(str(path))
    assert "Title: Blue Ferry\nArtist: The Quays\nAlbum: Tidelines" in text
    assert text.startswith("Audio duration: 5 s")  # 200 frames of 1152 samples at 44.1 kHz


def test_durations_read_as_minutes_and_hours():
    assert [spoken_duration(s) for s in (59.6, 205, 3725)] == ["1 min 00 s", "3 min 25 s", "1 h 02 min"]


def test_a_song_is_found_by_its_artist_and_its_album(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    song = write_mp3(root / "Music" / "01.mp3", 40, title="Blue Ferry", artist="The Quays", album="Tidelines")
    memo = write_wav(root / "Music" / "memo.wav", 1, title="Rehearsal notes", artist="Mira Sol")
    with indexed_engine(root, sensetree_home) as engine:
        by_artist = engine.semantic_search("songs by The Quays", limit=3)
        by_album = engine.semantic_search("Tidelines album", limit=3)
        by_title = engine.semantic_search("rehearsal recording", limit=3)
    assert by_artist[0].path == str(song) and by_album[0].path == str(song)
    assert by_title[0].path == str(memo)
