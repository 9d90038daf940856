"""Unhelpful names — what a scanner, a camera or an office program calls a file when nobody names it
(`scan_0042.pdf`, `IMG_2041.jpg`, `Document1.docx`, `Untitled 3.txt`, a bare number or hash) — and a
better name proposed from the file's stored sense: its first words that carry meaning, as a slug."""

from __future__ import annotations

import os
import re

from engine.gardener.inputs import Inputs
from engine.gardener.model import SEVERITY, Evidence, Finding

_UNHELPFUL = re.compile(
    r"^(?:(?:scan|scanned|img|image|dsc|dscn|dcim|pxl|photo|pic|mvimg|vid|screenshot|screen shot|"
    r"document|doc|untitled|new document|unbenannt|sans titre|file|download|attachment|export)"
    r"[\s_-]*\d*(?:[\s_-]+\d+)*|[\d\s_-]{4,}|[0-9a-f]{16,})(?:\s*\(\d+\))?$",
    re.IGNORECASE,
)
_STOP = frozenset(
    "a an the of for and or to in on at by with from is are was were be this that these those it its "
    "as about which who whom what document file page pages text scan scanned copy image photo".split()
)
MAX_WORDS = 6


def is_unhelpful(name: str) -> bool:
    stem = os.path.splitext(name)[0]
    return bool(_UNHELPFUL.fullmatch(stem.strip()))


def proposed_name(name: str, sense: str | None) -> str | None:
    """A name from the sense's leading meaningful words, keeping the extension; None without a sense."""
    if not sense:
        return None
    text = re.sub(r"^\s*\[[^\]]*\]\s*", "", sense)  # the "[doc_type]" prefix
    if text.casefold().startswith(name.casefold() + ":"):  # the extractive sense names the file first
        text = text[len(name) + 1 :]
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    words = [w for w in re.findall(r"[^\W_]+", first) if w.casefold() not in _STOP]
    slug = "-".join(w.lower() for w in words[:MAX_WORDS])
    if not slug or is_unhelpful(slug):
        return None
    return slug[:80] + os.path.splitext(name)[1].lower()


def unhelpful_names(inputs: Inputs) -> list[Finding]:
    findings = []
    for f in inputs.files:
        if not is_unhelpful(f.name):
            continue
        better = proposed_name(f.name, f.sense)
        taken = better is not None and os.path.lexists(os.path.join(f.folder, better))
        why = (
            f"“{f.name}” says nothing about the file; its sense suggests “{better}”."
            if better and not taken
            else f"“{f.name}” says nothing about the file, and no free name could be drawn from its sense."
        )
        findings.append(
            Finding(
                "unhelpful_name",
                SEVERITY["unhelpful_name"],
                f"{f.name} has an unhelpful name",
                why,
                [Evidence(f.path, f.size, f.modified, None, (f.sense or "")[:200])],
                target=better if better and not taken else None,
            )
        )
    return findings
