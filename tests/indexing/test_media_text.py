"""Photos found by their caption and recordings by their transcript, through the real `openai` client
talking to the scripted endpoint (tests/fake_openai.py) — and nothing sent anywhere while no endpoint
is configured (issue 33, items 2, 3 and 6)."""

from __future__ import annotations

import contextlib
import io
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.engine import Engine
from engine.indexing import media_client
from engine.indexing.media_phase import MediaPhase, media_endpoints
from tests.fake_openai import FakeOpenAI, Raw
from tests.indexing.helpers import SAMPLE, make_engine, write_docs

Image = pytest.importorskip("PIL.Image")

CAT = "A grey cat asleep on a green velvet sofa next to a window."
SPEECH = "Reminder for Thursday: the plumber Zoltan comes at nine to fix the boiler."


def write_photo(path: Path, size: tuple[int, int] = (2400, 1600)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "teal").save(path, quality=70)
    return path


def write_recording(path: Path, seconds: float = 0.5) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(8000)
        sound.writeframes(b"\1\0" * int(8000 * seconds))
    return path


def endpoint(fake: FakeOpenAI, model: str, **more: object) -> dict[str, object]:
    return {"base_url": fake.base_url, "model": model, **more}


@contextlib.contextmanager
def indexed_with(root: Path, home: Path, settings: dict[str, object]) -> Iterator[Engine]:
    """An engine with `settings` saved first, then `root` added and indexed (every phase); closed after."""
    engine = make_engine(home)
    try:
        engine.set_config(settings)
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        yield engine
    finally:
        engine.running.close()


def test_a_photo_is_found_by_its_caption_from_the_scripted_vision_endpoint(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    photo = write_photo(root / "Pictures" / "IMG_2304.jpg")
    with (
        FakeOpenAI(caption=CAT) as fake,
        indexed_with(root, sensetree_home, {"vision": endpoint(fake, "llava")}) as engine,
    ):
        hits = engine.semantic_search("the cat on the sofa", limit=3)
        details = engine.path_details(str(photo))
        read = engine.parts.agent._host.extracted_text(str(photo))
    assert hits[0].path == str(photo)
    assert f"Caption: {CAT}" in read  # the agent's read_file sees it too
    assert details.note == f"Caption from llava at {fake.base_url}"
    assert details.sense == CAT  # what the photo shows, not just its name
    assert details.readings is not None and details.readings[0].model_dump() == {
        "label": "Caption",
        "source": f"llava at {fake.base_url}",
        "text": CAT,
    }  # one of the file's readings, first, with the endpoint's model and address as its source
    sent = Image.open(io.BytesIO(fake.images[0]))
    assert len(fake.images) == 1 and sent.format == "JPEG" and max(sent.size) == 1024


def test_photos_indexed_before_the_endpoint_was_set_are_captioned_once_and_copies_never_again(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    photo = write_photo(root / "IMG_1.jpg")
    copy = root / "backup" / "IMG_1 copy.jpg"
    with FakeOpenAI(caption=CAT) as fake, indexed_with(root, sensetree_home, {}) as engine:
        engine.set_config({"vision": endpoint(fake, "llava")})
        engine.parts.index.drain()
        copy.parent.mkdir()
        copy.write_bytes(photo.read_bytes())
        engine.reindex_path(str(root))
        engine.parts.index.drain()
        hits = engine.semantic_search("grey cat asleep velvet sofa", limit=3)
    assert len(fake.images) == 1
    assert {hits[0].path, *hits[0].copies} == {str(photo), str(copy)}, "the caption finds both: one row"


def test_a_recording_is_found_by_its_transcript(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    memo = write_recording(root / "Voice memos" / "memo-0413.wav")
    with (
        FakeOpenAI(transcript=SPEECH) as fake,
        indexed_with(root, sensetree_home, {"transcription": endpoint(fake, "whisper-1")}) as engine,
    ):
        hits = engine.semantic_search("when does the plumber Zoltan come", limit=3)
        record = engine.parts.index.catalog.get(str(memo))
        read = engine.parts.agent._host.extracted_text(str(memo))
        details = engine.path_details(str(memo))
    assert hits[0].path == str(memo) and "Zoltan" in hits[0].snippet
    assert f"Transcript:\n{SPEECH}" in read
    assert record.note == f"Transcript from whisper-1 at {fake.base_url}"
    transcript = (details.readings or [])[0]
    assert (transcript.label, transcript.source, transcript.text) == (
        "Transcript",
        f"whisper-1 at {fake.base_url}",
        SPEECH,
    )
    form = [r for r, p in zip(fake.requests, fake.paths, strict=True) if p.endswith("/audio/transcriptions")]
    assert form == [{"model": "whisper-1", "file_name": "memo-0413.wav", "file_bytes": memo.stat().st_size}]


def test_a_recording_over_the_size_bound_is_not_sent_and_says_why(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    memo = write_recording(root / "long.wav", seconds=8)  # 128 kB
    with (
        FakeOpenAI(transcript=SPEECH) as fake,
        indexed_with(root, sensetree_home, {"transcription": endpoint(fake, "w", max_mb=0.1)}) as engine,
    ):
        record = engine.parts.index.catalog.get(str(memo))
    assert fake.paths == []
    assert "Not transcribed: 0.128 MB is over the 0.1 MB limit" in (record.note or "")


def test_nothing_is_sent_anywhere_while_no_endpoint_is_configured(tmp_path, sensetree_home, monkeypatch):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    write_photo(root / "IMG_9.jpg")
    write_recording(root / "memo.wav")
    built: list[object] = []
    import openai

    monkeypatch.setattr(openai, "OpenAI", lambda *a, **k: built.append(k))  # any client at all
    models_only = {"vision": {"model": "llava"}, "transcription": {"model": "whisper-1"}}  # no address: off
    with indexed_with(root, sensetree_home, models_only) as engine:
        waiting = engine.parts.index.indexer.media.waiting()
        ran = engine.parts.index.worker.media.run_one()
    assert built == [] and waiting == 0 and ran == 0


def test_a_failing_endpoint_pauses_the_phase_and_a_rejected_photo_is_noted_not_fatal(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    photo = write_photo(root / "IMG_5.jpg")
    rejected = Raw(400, {"error": {"message": "image too small"}})
    script = [Raw(503, {"error": {"message": "loading"}}), rejected]
    with FakeOpenAI(script, caption=CAT) as fake:
        # the 503 (while indexing): paused, nothing recorded against the photo but one attempt
        with indexed_with(root, sensetree_home, {"vision": endpoint(fake, "llava")}) as engine:
            paused = engine.parts.index.worker.media
            waiting = engine.parts.index.indexer.media.waiting()
            paused._resume_at = 0.0  # the back-off is over
            engine.parts.index.drain()  # the 400: this photo is rejected, remembered, not retried
            record = engine.parts.index.catalog.get(str(photo))
            later = paused.run_one()
            refusal = (engine.path_details(str(photo)).readings or [])[0]
    assert isinstance(paused, MediaPhase) and waiting == 1
    assert record.status in ("skipped", "done") and "image too small" in (record.note or "")
    assert refusal.label == "Caption" and refusal.text.startswith("No caption: ")
    assert "image too small" in refusal.text
    assert later == 0 and fake.remaining() == 0


def test_test_connection_for_vision_sends_a_small_picture_and_reports_the_caption(sensetree_home):
    with FakeOpenAI(caption="A red circle on white.") as fake:
        engine = make_engine(sensetree_home)
        try:
            verdict = engine.test_media_endpoint("vision", fake.base_url, None, "llava")
            missing = engine.test_media_endpoint("vision", "", None, "llava")
            down = engine.test_media_endpoint("vision", "http://127.0.0.1:9/v1", None, "llava")
        finally:
            engine.running.close()
    assert verdict.ok and "A red circle on white." in verdict.message and len(fake.images) == 1
    assert not missing.ok and not down.ok and "Cannot reach" in down.message


def test_test_connection_for_transcription_sends_half_a_second_of_silence(sensetree_home):
    with FakeOpenAI(transcript="") as fake:
        engine = make_engine(sensetree_home)
        try:
            verdict = engine.test_media_endpoint("transcription", fake.base_url, None, "whisper-1")
        finally:
            engine.running.close()
    assert verdict.ok and fake.paths[-1].endswith("/audio/transcriptions")


class Killed(BaseException):
    """Stands for the process dying while a caption is asked for (nothing below catches it)."""


def test_after_a_kill_captions_resume_and_no_photo_is_sent_twice(tmp_path, sensetree_home, monkeypatch):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    for name, colour in (("a.jpg", "red"), ("b.jpg", "green"), ("c.jpg", "blue")):
        Image.new("RGB", (64, 64), colour).save(root / name)
    asked: list[int] = []
    real = media_client.caption

    def caption(endpoint, jpeg: bytes) -> str:
        asked.append(len(asked))
        if len(asked) == 2:
            raise Killed
        return real(endpoint, jpeg)

    monkeypatch.setattr(media_client, "caption", caption)
    with FakeOpenAI(caption=CAT) as fake:
        with pytest.raises(Killed), indexed_with(root, sensetree_home, {"vision": endpoint(fake, "llava")}):
            pass
        with indexed_with(root, sensetree_home, {}) as engine:  # the restart: the settings are kept
            engine.reindex_path(str(root))
            engine.parts.index.drain()
            hits = [h.path for h in engine.semantic_search("grey cat asleep velvet sofa", limit=3)]
    assert len(asked) == 4 and len(fake.images) == 3  # the killed request, once more; the others once
    assert sorted(hits) == [str(root / n) for n in ("a.jpg", "b.jpg", "c.jpg")]


def test_an_unreachable_endpoint_pauses_the_phase_and_the_worker_is_woken_when_the_pause_ends(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    photo = write_photo(root / "IMG_7.jpg", size=(64, 64))
    now = [1000.0]
    down = {"vision": {"base_url": "http://127.0.0.1:9/v1", "model": "llava"}}  # nothing listens there
    with indexed_with(root, sensetree_home, down) as engine:
        phase = MediaPhase(
            engine.parts.index.indexer, lambda: media_endpoints(engine.running.settings), lambda: now[0]
        )
        asked = phase.run_one()  # refused at once: paused, nothing recorded against the photo
        wait = phase.wake_in(None)
        during = phase.run_one()
        now[0] += wait
        after = phase.run_one()
        second_wait = phase.wake_in(None)
        details = engine.path_details(str(photo))
    assert (asked, during, after) == (1, 0, 1)
    assert wait == 30.0 and second_wait == 60.0  # the back-off doubles while the endpoint stays down
    assert (
        not any(r.label == "Caption" for r in details.readings or [])
        and details.note == "Waits for a caption from llava at http://127.0.0.1:9/v1"
    )
