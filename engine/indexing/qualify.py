"""Qualification: a file's *sense* — 2 to 4 factual sentences saying what it is and whom it concerns.

With a reasoning endpoint the model writes it (prompt `prompts.doc_qualify`); without one, or when the
endpoint fails, an extractive fallback (title + leading sentences) keeps indexing going. A pinned sense
(a person's correction) always wins and is never regenerated.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.indexing.extractors.base import clean_title
from engine.markdown_text import strip_markdown

log = logging.getLogger(__name__)

# (system prompt, user content) -> the model's reply text
Complete = Callable[[str, str], str]

MODEL_INPUT_CHARS = 4000
FALLBACK_CHARS = 400
_TYPE_PREFIX = re.compile(r"^\s*\[([^\]\n]{1,40})\]\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
SCANNED_PDF = "Scanned PDF: no text layer (its pages are images), so only its name can be searched."


@dataclass(frozen=True)
class Sense:
    text: str
    doc_type: str
    source: str  # "model" | "extractive" | "pinned"


def qualify(
    *, name: str, text: str, doc_type: str, title: str | None, prompt: str, complete: Complete | None
) -> Sense:
    """The sense of a file from its extracted text, by the model when one is available."""
    if complete is not None and text.strip():
        try:
            reply = complete(prompt, f"File name: {name}\nFormat: {doc_type}\n\n{text[:MODEL_INPUT_CHARS]}")
            sense = _clean(reply)
            if sense:
                kind, body = split_type(sense)
                return Sense(body, kind or doc_type, "model")
        except Exception as exc:  # noqa: BLE001 - the endpoint failing must not fail indexing: fall back
            log.warning("qualification by the model failed for %s, using the extractive sense: %s", name, exc)
    return Sense(extractive_sense(name, text, title, doc_type), doc_type, "extractive")


def extractive_sense(name: str, text: str, title: str | None, doc_type: str = "text") -> str:
    """Title (or file name) plus the leading sentences, capped: honest and free. A junk title
    (`untitled`, `Microsoft Word - …`) is no title; Markdown reads as its text; a PDF without text says
    it is a scan rather than saying nothing."""
    title = clean_title(title)
    if doc_type == "pdf" and not text.strip():
        return f"{title}. {SCANNED_PDF}" if title else SCANNED_PDF
    lead = title or name
    body = " ".join((strip_markdown(text) if doc_type == "markdown" else text).split())
    if not body:
        return f"{lead}."
    if body.lower().startswith(lead.lower()):
        body = body[len(lead) :].lstrip(" .:-—")
    sentences, total = [], 0
    for sentence in _SENTENCE_END.split(body):
        if total and total + len(sentence) > FALLBACK_CHARS:
            break
        sentences.append(sentence)
        total += len(sentence) + 1
        if len(sentences) == 3:
            break
    lead_text = " ".join(sentences)[:FALLBACK_CHARS].strip()
    return f"{lead}: {lead_text}" if lead_text else f"{lead}."


def split_type(sense: str) -> tuple[str | None, str]:
    """`[invoice] Invoice from …` → ("invoice", "Invoice from …")."""
    match = _TYPE_PREFIX.match(sense)
    if not match:
        return None, sense.strip()
    return match.group(1).strip().lower(), sense[match.end() :].strip()


def _clean(reply: str) -> str:
    text = re.sub(r"<think>.*?</think>", "", reply or "", flags=re.DOTALL).strip()
    return " ".join(text.split())[:1200]
