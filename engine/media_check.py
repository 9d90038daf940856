"""Test connection for Settings → Pictures and sound: does the vision or transcription endpoint the person
typed answer, with the model typed? One real request with a made-up sample — a small generated picture,
half a second of generated silence — never one of the person's files, and nothing is saved. Answers in
words a person can act on, never by raising.
"""

from __future__ import annotations

import io
import os
import tempfile
import wave

from engine.agent.endpoints import slip_hint, typed_settings
from engine.config import Settings
from engine.errors import EndpointError, InvalidInput
from engine.indexing import media_client
from engine.indexing.media_client import MediaEndpoint
from engine.key_guard import KeyGuard
from engine.results import Result

KINDS = ("vision", "transcription")


class MediaCheck(Result):
    """`test_media_endpoint`'s verdict: `ok`, a sentence for the person, and what the model answered."""

    ok: bool
    message: str
    answer: str | None = None


def test_endpoint(
    settings: Settings,
    kind: str,
    typed: tuple[str | None, str | None, str | None],
    guard: KeyGuard,
) -> MediaCheck:
    """`test_media_endpoint`: the saved `kind` section, or what is typed (base URL, key, model) on top;
    a typed address gets the stored key only where the key guard vouches for it."""
    base_url, api_key, model = typed
    if kind not in KINDS:
        raise InvalidInput(f"Unknown endpoint kind {kind!r}: use one of {', '.join(KINDS)}")
    if base_url is not None:
        api_key = guard.key_for(kind, settings, base_url.strip(), api_key)
    return check(kind, typed_endpoint(settings, kind, base_url, api_key, model))


def typed_endpoint(
    settings: Settings, kind: str, base_url: str | None, api_key: str | None, model: str | None
) -> MediaEndpoint | None:
    """The saved section of `kind` with what the person typed on top (a masked key keeps the saved one)."""
    section = typed_settings(getattr(settings, kind), base_url, api_key, model)
    if kind == "vision":
        return media_client.vision_endpoint(section)
    return media_client.transcription_endpoint(section)


def check(kind: str, endpoint: MediaEndpoint | None) -> MediaCheck:
    if endpoint is None:
        return MediaCheck(ok=False, message="Enter the endpoint's address and the model's name first.")
    try:
        answer = _sample_caption(endpoint) if kind == "vision" else _sample_transcript(endpoint)
    except EndpointError as exc:
        hint = slip_hint(endpoint.base_url)
        return MediaCheck(ok=False, message=f"{exc.message}. {hint}" if hint else f"{exc.message}.")
    if kind == "vision" and not answer:
        empty = f"{endpoint.source} answered with no caption; is it a vision model?"
        return MediaCheck(ok=False, message=empty)
    sent = "a small test picture" if kind == "vision" else "half a second of silence"
    return MediaCheck(
        ok=True, message=f"{endpoint.source} answers ({sent} was sent): “{answer[:120]}”", answer=answer
    )


def _sample_caption(endpoint: MediaEndpoint) -> str:
    from PIL import Image, ImageDraw

    picture = Image.new("RGB", (96, 96), "white")
    ImageDraw.Draw(picture).ellipse((16, 16, 80, 80), fill="red")
    out = io.BytesIO()
    picture.save(out, "JPEG")
    return media_client.caption(endpoint, out.getvalue())


def _sample_transcript(endpoint: MediaEndpoint) -> str:
    handle, path = tempfile.mkstemp(suffix=".wav", prefix="sensetree-test-")
    os.close(handle)
    try:
        with wave.open(path, "wb") as sound:
            sound.setnchannels(1)
            sound.setsampwidth(2)
            sound.setframerate(16_000)
            sound.writeframes(b"\0\0" * 8_000)
        return media_client.transcribe(endpoint, path)
    finally:
        os.remove(path)
