"""Unhelpful names — what an office program or a download calls a file when nobody names it
(`Document1.docx`, `Untitled 3.txt`, `untitled.txt`, `scan_0042.pdf`, a bare number or hash) — and a
better name, proposed only when the file's own title or sense gives one that is clearly better.

Conventional names are not unhelpful (issue 29): a date (`2024-01-03.md`, a journal day), a camera's
or phone's pattern (`IMG_4400.jpg`, `DSC_0012.JPG`, `PXL_20240312_101010.jpg`, `20240312_101010.jpg`)
or a scanner's dated one (`Scan_2024-03-01.pdf`) is how such files are meant to be named and sorted.

A suggestion must read as a name: two to six words of letters (one short number or year may stand
among them), drawn
from the first sentence of the sense; `asdf.txt` or `id-value-0-0-0437-1.csv` are worse than no
suggestion, so the finding then says why the name is unhelpful and proposes nothing."""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from engine.gardener.inputs import FileInfo, Inputs
from engine.gardener.model import SEVERITY, Evidence, Finding

_UNHELPFUL = re.compile(
    r"^(?:(?:scan|scanned|document|doc|untitled|new document|new text document|unbenannt|sans titre|"
    r"file|download|attachment|export|noname|temp|tmp|test|asdf|foo)[\s_-]*\d*(?:[\s_-]+\d+)*|"
    r"\d{1,7}|[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\s*\(\d+\))?$",
    re.IGNORECASE,
)
_DATE = r"(?:19|20)\d{2}[-_.]?(?:0[1-9]|1[0-2])[-_.]?(?:0[1-9]|[12]\d|3[01])"
_CONVENTIONAL = re.compile(
    rf"^(?:{_DATE}(?:[\sT_-]+\d{{2}}[-_.]?\d{{2}}(?:[-_.]?\d{{2}})?)?(?:[\s_-].*)?|"
    rf"(?:img|dsc|dscn|dscf|pxl|mvimg|vid|gopr|dji|sam)[\s_-]*\d+(?:[\s_-]+\d+)*(?:[\s_-].*)?|"
    rf"(?:scan|scanned|screenshot|screen shot|photo)[\s_-]*{_DATE}(?:[\s_-].*)?)(?:\s*\(\d+\))?$",
    re.IGNORECASE,
)
_STOP = frozenset(
    "a an the of for and or to in on at by with from is are was were be this that these those it its "
    "as about which who whom what document file page pages text scan scanned copy image photo contains "
    "describes shows lists".split()
)
MAX_WORDS = 6


def is_conventional(name: str) -> bool:
    """A date, or a camera's, phone's or scanner's own pattern: a name meant to sort, not to describe."""
    return bool(_CONVENTIONAL.fullmatch(os.path.splitext(name)[0].strip()))


def is_unhelpful(name: str) -> bool:
    stem = os.path.splitext(name)[0].strip()
    return not is_conventional(name) and bool(_UNHELPFUL.fullmatch(stem))


def proposed_name(name: str, sense: str | None, text: str = "") -> str | None:
    """A name from the file's own title (its first line, when that is short) or else from the sense's
    first sentence, keeping the extension; None unless it reads as a name (two to six words of letters,
    one number allowed) and is not itself unhelpful."""
    first_line = text.strip().split("\n", 1)[0] if text.strip() else ""
    for source in (
        first_line if len(first_line.split()) <= 2 * MAX_WORDS else "",
        _first_sentence(name, sense),
    ):
        words = [w.lower() for w in re.findall(r"[^\W_]+", source) if w.casefold() not in _STOP][:MAX_WORDS]
        slug = "-".join(words)
        if _reads_as_a_name(words) and not is_unhelpful(slug):
            return slug[:80] + os.path.splitext(name)[1].lower()
    return None


def _first_sentence(name: str, sense: str | None) -> str:
    text = re.sub(r"^\s*\[[^\]]*\]\s*", "", sense or "")  # the "[doc_type]" prefix
    if text.casefold().startswith(name.casefold() + ":"):  # the extractive sense names the file first
        text = text[len(name) + 1 :]
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]


_JUNK = frozenset("asdf qwerty lorem ipsum dolor test testing foo bar baz xxx tmp temp untitled".split())


def _reads_as_a_name(words: list[str]) -> bool:
    """Two or more distinct words of letters (one short number may stand among them), none filler."""
    if len(set(words)) != len(words):
        return False
    real = [w for w in words if w.isalpha() and len(w) >= 3 and re.search(r"[aeiouy]", w) and w not in _JUNK]
    numbers = [w for w in words if w.isdigit() and len(w) <= 4]
    return len(real) >= 2 and len(real) + len(numbers) == len(words) and len(numbers) <= 1


def unhelpful_names(
    inputs: Inputs, texts: Callable[[list[FileInfo]], dict[str, str]] | None = None
) -> list[Finding]:
    """`texts` gives the extracted text of the few files flagged, for their titles."""
    flagged = [f for f in inputs.files if is_unhelpful(f.name)]
    bodies = texts(flagged) if texts and flagged else {}
    findings = []
    for f in flagged:
        better = proposed_name(f.name, f.sense, bodies.get(f.path, ""))
        taken = better is not None and os.path.lexists(os.path.join(f.folder, better))
        if better and not taken:
            why = f"“{f.name}” says nothing about the file; its own text suggests “{better}”."
        elif better:
            why = f"“{f.name}” says nothing about the file; the name its text suggests, “{better}”, is taken."
        else:
            why = f"“{f.name}” says nothing about the file, and its text gives no clearly better name."
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
