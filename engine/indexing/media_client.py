"""What leaves the machine for a photo's caption or a recording's transcript — and only when the person
configured that endpoint (Settings → Pictures and sound). `vision_endpoint` / `transcription_endpoint`
return None while an address or a model is missing, and nothing in this module builds a client without
one, so an unconfigured SenseTree sends nothing anywhere (tests/indexing/test_media_text.py).

A photo is decoded at reduced size (JPEG `draft`), shrunk to `max_side` pixels and sent as one JPEG data
URL in an `image_url` content part of an OpenAI-compatible chat request; a recording is sent whole to
`/audio/transcriptions`. Each request is bounded by the endpoint's timeout and retried by nobody here:
the phase (media_phase.py) decides. Failures come back as two kinds, because they mean different
things to the phase: `Refused` (this file was rejected: remember that and move on) and `Unavailable`
(the endpoint cannot be used now: try again later, nothing about the file is recorded).

JSON edge: the vision endpoint's chat messages (the OpenAI wire's JSON).
"""

from __future__ import annotations

import base64
import io
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.config import TranscriptionSettings, VisionSettings
from engine.errors import EndpointError
from engine.openai_detail import error_detail

if TYPE_CHECKING:
    import openai

CAPTION_PROMPT = (
    "Describe this photo in one or two plain sentences for a search index: what and who is in it, "
    "where it seems to be, and any visible text. No preamble."
)
CAPTION_MAX_TOKENS = 120
CAPTION_MAX_CHARS = 600
# Above this many pixels (after JPEG's reduced decoding) a photo is not decoded for a caption: a PNG is
# decoded whole (bench/media_prepare.py: 216 MB peak for 20 MP), while a camera's JPEG decodes at 1/2–1/8
# size (91 MB peak for 24 MP, 66 MB for 48 MP). A 100 MP PNG is refused from its header (34 MB).
MAX_DECODE_PIXELS = 24_000_000
PER_FILE_STATUSES = (400, 413, 415, 422)  # the endpoint rejected *this* file


@dataclass(frozen=True)
class MediaEndpoint:
    """One configured endpoint: where, which model, which key, how long one file may take, and its
    bound on what is sent (the longest side in pixels for vision, bytes for transcription)."""

    base_url: str
    model: str
    api_key: str
    timeout_s: float
    limit: int

    @property
    def source(self) -> str:
        """How Details names where a caption or transcript came from, and the cache key's third part."""
        return f"{self.model} at {self.base_url}"


class Refused(EndpointError):
    """The endpoint rejected this file (or it cannot be prepared): cached with this reason."""


class Unavailable(EndpointError):
    """The endpoint cannot be used now (down, slow, refusing the key or the model): try again later.
    `file_specific` is set for a timeout or a server error, which one heavy file can cause."""

    def __init__(self, message: str, file_specific: bool = False):
        super().__init__(message)
        self.file_specific = file_specific


def vision_endpoint(settings: VisionSettings) -> MediaEndpoint | None:
    return _configured(settings, max(64, settings.max_side))


def transcription_endpoint(settings: TranscriptionSettings) -> MediaEndpoint | None:
    return _configured(settings, int(settings.max_mb * 1_000_000))


def _configured(settings: VisionSettings | TranscriptionSettings, limit: int) -> MediaEndpoint | None:
    """The endpoint, or None (nothing will be sent) while its address or its model is empty."""
    base_url, model = settings.base_url.strip(), settings.model.strip()
    if not (base_url and model):
        return None
    return MediaEndpoint(base_url, model, settings.api_key, settings.timeout_s, limit)


def resized_jpeg(path: str, max_side: int) -> bytes:
    """The photo as a JPEG at most `max_side` pixels on its long side; Refused when it cannot be read."""
    try:
        from PIL import Image, ImageOps

        with Image.open(path) as image:
            image.draft("RGB", (max_side, max_side))  # JPEG: decode at 1/2, 1/4 or 1/8 size
            pixels = image.size[0] * image.size[1]
            if pixels > MAX_DECODE_PIXELS:
                raise Refused(
                    f"Not captioned: {pixels / 1e6:.0f} megapixels is more than SenseTree decodes for a "
                    f"caption ({MAX_DECODE_PIXELS / 1e6:.0f})"
                )
            upright = ImageOps.exif_transpose(image) or image
            upright.thumbnail((max_side, max_side))
            out = io.BytesIO()
            upright.convert("RGB").save(out, "JPEG", quality=85)
            return out.getvalue()
    except Refused:
        raise
    except Exception as exc:  # noqa: BLE001 (Pillow raises anything on a damaged or unknown picture)
        raise Refused(f"Not captioned: the picture could not be read ({type(exc).__name__}: {exc})") from exc


def data_url(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")


def caption_messages(jpeg: bytes, prompt: str = CAPTION_PROMPT) -> list[dict[str, Any]]:
    image = {"type": "image_url", "image_url": {"url": data_url(jpeg)}}
    return [{"role": "user", "content": [{"type": "text", "text": prompt}, image]}]


def caption(endpoint: MediaEndpoint, jpeg: bytes) -> str:
    """The vision model's short caption of a prepared photo."""
    import openai

    client = _client(endpoint)
    try:
        completion = client.chat.completions.create(
            model=endpoint.model,
            messages=caption_messages(jpeg),  # type: ignore[arg-type]
            max_tokens=CAPTION_MAX_TOKENS,
            temperature=0.2,
        )
    except openai.OpenAIError as exc:
        raise translate(exc, endpoint, "vision") from exc
    finally:
        client.close()
    choices = completion.choices or []
    text = (choices[0].message.content or "") if choices else ""
    return " ".join(text.split())[:CAPTION_MAX_CHARS]


def transcribe(endpoint: MediaEndpoint, path: str) -> str:
    """The transcript of a recording; Refused (before anything is sent) when it is over the size bound."""
    import openai

    size = os.path.getsize(path)
    if size > endpoint.limit:
        raise Refused(over_limit(size, endpoint.limit))
    client = _client(endpoint)
    try:
        with open(path, "rb") as handle:
            result = client.audio.transcriptions.create(
                model=endpoint.model, file=(os.path.basename(path), handle)
            )
    except openai.OpenAIError as exc:
        raise translate(exc, endpoint, "transcription") from exc
    finally:
        client.close()
    text = getattr(result, "text", None)
    return str(text if text is not None else result).strip()


def over_limit(size: int, limit: int) -> str:
    return (
        f"Not transcribed: {size / 1e6:.3g} MB is over the {limit / 1e6:g} MB limit for the transcription "
        f"endpoint (Settings → Pictures and sound)"
    )


def _client(endpoint: MediaEndpoint) -> openai.OpenAI:
    import openai  # here: its ~1,000 pydantic types cost the engine's start ~1 s

    return openai.OpenAI(
        base_url=endpoint.base_url,
        api_key=endpoint.api_key or "not-needed",
        timeout=endpoint.timeout_s,
        max_retries=0,  # the phase retries, later, with other files in between
    )


def translate(exc: openai.OpenAIError, endpoint: MediaEndpoint, slot: str) -> EndpointError:
    """An SDK failure → Refused (this file) or Unavailable (the endpoint, now), in words."""
    import openai

    where = f"The {slot} endpoint {endpoint.base_url}"
    if isinstance(exc, openai.APITimeoutError):
        return Unavailable(f"{where} did not answer within {endpoint.timeout_s:g} s", file_specific=True)
    if isinstance(exc, openai.APIConnectionError):
        return Unavailable(f"Cannot reach {where[4:]}; is the server running and the address right?")
    if not isinstance(exc, openai.APIStatusError):
        return Unavailable(f"{where} gave an unreadable answer ({exc})")
    status = exc.status_code
    detail = error_detail(exc)
    if status in PER_FILE_STATUSES:
        return Refused(f"{where} rejected this file ({status}): {detail}")
    if status == 401:
        return Unavailable(f"{where} refused the API key (401); enter a valid key in Settings")
    if status == 404:
        return Unavailable(f"{where} does not know model {endpoint.model!r} (404), or the URL lacks /v1")
    return Unavailable(f"{where} failed ({status}): {detail}", file_specific=status >= 500)
