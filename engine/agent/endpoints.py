"""The reasoning endpoint as Settings → Reasoning model sees it: which models it offers, and whether what
the person *typed* works, tested without saving it (saving first would lose a working configuration
when the test fails).

The common slips get a specific hint instead of a generic connection error: a base URL without
`http://` (`localhost:1234`), or one without the `/v1` that every OpenAI-compatible server expects
(`http://localhost:1234`). When the corrected URL answers, the verdict says so and carries it as
`suggested_base_url`, so the page can offer to use it. The slip is named before anything else (an
empty model too), Refresh reads the models at the corrected URL of a URL without `http://`, and a
URL without `http://` is never saved (`refuse_unsaveable`): the person saves the corrected one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel

from engine.agent.model import ChatModel, OpenAIChatModel
from engine.agent.probe import EndpointCheck, failed, probe_endpoint
from engine.config import MASK, ReasoningSettings
from engine.errors import EndpointError, InvalidInput

ModelFactory = Callable[[ReasoningSettings], ChatModel]
Section = TypeVar("Section", bound=BaseModel)
T = TypeVar("T")


def fix_base_url(base_url: str) -> str | None:
    """The URL the person most likely meant, or None when `base_url` looks right."""
    url = base_url.strip()
    if not url:
        return None
    if not re.match(r"^[a-z][a-z0-9+.-]*://", url, flags=re.IGNORECASE):
        url = "http://" + url
    parts = urlsplit(url)
    if not re.search(r"/v\d+(beta)?(/|$)", parts.path) and not parts.path.strip("/"):
        url = url.rstrip("/") + "/v1"
    return url if url != base_url.strip() else None


def slip_hint(base_url: str) -> str | None:
    """A sentence naming the slip in `base_url`, or None."""
    fixed = fix_base_url(base_url)
    if fixed is None:
        return None
    if "://" not in base_url:
        return f"The base URL {base_url!r} has no http:// in front; OpenAI-compatible servers expect {fixed}."
    return (
        f"The base URL {base_url!r} is missing the /v1 part that OpenAI-compatible servers expect: "
        f"try {fixed}."
    )


def refuse_unsaveable(base_url: str) -> None:
    """A base URL with no scheme cannot work (the client would not know how to reach it): saving it is
    refused with the hint that names the URL to use instead."""
    hint = slip_hint(base_url)
    if hint and "://" not in base_url:
        raise InvalidInput(f"Not saved: {hint} Use that URL, then Save.")


def typed_settings(saved: Section, base_url: str | None, api_key: str | None, model: str | None) -> Section:
    """The saved settings of an endpoint (reasoning, vision, transcription) with what the person typed on
    top (a masked key keeps the saved one)."""
    update: dict[str, str] = {}
    if base_url is not None:
        update["base_url"] = base_url.strip()
    if api_key is not None and api_key != MASK:
        update["api_key"] = api_key
    if model is not None:
        update["model"] = model.strip()
    return saved.model_copy(update=update)


def _with_model(factory: ModelFactory, settings: ReasoningSettings, use: Callable[[ChatModel], T]) -> T:
    model = factory(settings)
    try:
        return use(model)
    finally:
        closer = getattr(model, "close", None)
        if callable(closer):
            closer()


def list_models(settings: ReasoningSettings, factory: ModelFactory | None = None) -> list[str]:
    """The model ids the endpoint lists at `/v1/models`, sorted; an EndpointError says why not."""
    hint = slip_hint(settings.base_url)
    if hint and "://" not in settings.base_url:  # the URL it names is the one to read
        settings = settings.model_copy(update={"base_url": fix_base_url(settings.base_url)})
        hint = None
    make = factory or (lambda rs: OpenAIChatModel(rs))

    def fetch(model: ChatModel) -> list[str]:
        lister = getattr(model, "list_models", None)
        if not callable(lister):
            return []
        return sorted(set(lister()))

    try:
        return _with_model(make, settings, fetch)
    except EndpointError as exc:
        raise EndpointError(f"{exc.message} {hint}" if hint else exc.message) from exc


def check_typed(settings: ReasoningSettings, factory: ModelFactory | None = None) -> EndpointCheck:
    """`test_chat_endpoint` for what is typed: the probe's verdict, with a hint and a fix for slips."""
    make = factory or (lambda rs: OpenAIChatModel(rs))
    hint = slip_hint(settings.base_url)
    if not settings.model:
        no_model = "No model is set: pick one from the list (Refresh reads the endpoint's models)."
        if hint is None:
            return failed(no_model)
        return failed(f"{hint} {no_model}").model_copy(
            update={"suggested_base_url": fix_base_url(settings.base_url)}
        )
    if hint is None:
        return _with_model(make, settings, lambda m: probe_endpoint(m, settings))
    fixed = settings.model_copy(update={"base_url": fix_base_url(settings.base_url)})
    verdict = _with_model(make, fixed, lambda m: probe_endpoint(m, fixed))
    if verdict.ok:
        return verdict.model_copy(
            update={
                "ok": False,
                "suggested_base_url": fixed.base_url,
                "message": f"{hint} It answers there: {verdict.message}",
            }
        )
    return verdict.model_copy(update={"message": f"{hint} ({verdict.message})"})
