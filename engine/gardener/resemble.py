"""Whether two extracted texts are the same document: the textual evidence a near-duplicate needs on
top of vector similarity (issue 29).

Vectors say two files are *about* the same thing; a rent receipt for March and one for April are
about the same thing, and so are ten meeting notes written from one template. Only the text can say
they are the same document. Two measures, over word 3-shingles of the normalised text (ligatures
unfolded, words re-joined across hyphenated line breaks, case folded — what a re-saved PDF changes):

* **resemblance** (Jaccard of the shingle sets) — an edited copy keeps most shingles; or, length-aware,
  **containment** — a copy with a line appended or a page header and footer added holds nearly all
  of the other's shingles, and is not much longer (an excerpt is not a copy);
* **slot changes** — where a difference replaces a number, a date or a month by another one, the
  files are records of one template (a series), not copies: the figures are what makes each record
  what it is. A difference in the last few words of a long text (a "printed on" or "downloaded on"
  footer) is what copying adds, and is not counted.

Short texts need more: with few shingles one changed word moves resemblance a lot either way, so the
bar rises as the text gets shorter (`required`)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

SHINGLE = 3
NEAR = 0.8  # resemblance a long text needs to count as the same document (bench/gardener.py calibrates)
SHORT = 40  # below this many words the bar rises towards 1
CONTAINED = 0.9  # ... or this share of the shorter text's phrases inside the longer,
LENGTH_RATIO = 0.75  # when the shorter is at least this share of the longer (an excerpt is no copy)
EDGE = 12  # words at the end of a long text where copying adds a footer
_WORD = re.compile(r"\w+")
_HYPHEN_BREAK = re.compile(r"(\w)-\s*\n\s*(\w)")
_MONTHS = frozenset(
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august "
    "september october november december".split()
)


@dataclass(frozen=True)
class Text:
    words: list[str]
    shingles: frozenset[int]


@dataclass(frozen=True)
class Verdict:
    same: bool
    resemblance: float
    why: str


def prepare(text: str) -> Text:
    """Normalised words and their shingle hashes (computed once per file, compared many times)."""
    text = _HYPHEN_BREAK.sub(r"\1\2", unicodedata.normalize("NFKC", text))
    words = _WORD.findall(text.casefold())
    if len(words) < SHINGLE:
        return Text(words, frozenset({hash(tuple(words))} if words else ()))
    return Text(
        words, frozenset(hash(tuple(words[i : i + SHINGLE])) for i in range(len(words) - SHINGLE + 1))
    )


def resemblance(a: Text, b: Text) -> float:
    if not a.shingles or not b.shingles:
        return 0.0
    shared = len(a.shingles & b.shingles)
    return shared / (len(a.shingles) + len(b.shingles) - shared)


def containment(a: Text, b: Text) -> float:
    """The share of the shorter text's shingles found in the longer: 1.0 when one is the other plus a
    header, a footer or an added line."""
    if not a.shingles or not b.shingles:
        return 0.0
    return len(a.shingles & b.shingles) / min(len(a.shingles), len(b.shingles))


def required(words: int, near: float = NEAR) -> float:
    """The resemblance a text of `words` words needs: `near` for long texts, rising to 0.95 for short."""
    if words >= SHORT:
        return near
    return near + (0.95 - near) * (SHORT - words) / SHORT


def slot_changes(a: Text, b: Text) -> list[tuple[str, str]]:
    """Numbers, dates or months replaced by others: `[(old, new)]`, a long text's footer excluded."""
    matcher = difflib.SequenceMatcher(None, a.words, b.words, autojunk=False)
    changes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or (_at_end(i1, len(a.words)) and _at_end(j1, len(b.words))):
            continue
        old = [w for w in a.words[i1:i2] if _is_slot(w)]
        new = [w for w in b.words[j1:j2] if _is_slot(w)]
        if old and new and old != new:
            changes.append((" ".join(old), " ".join(new)))
    return changes


def judge(a: Text, b: Text, near: float = NEAR) -> Verdict:
    """Same document, or not, with the reason in words a person can check."""
    score = resemblance(a, b)
    bar = required(min(len(a.words), len(b.words)), near)
    if not a.words or not b.words:
        return Verdict(False, 0.0, "no extracted text to compare")
    contained = containment(a, b)
    ratio = min(len(a.words), len(b.words)) / max(len(a.words), len(b.words))
    if score < bar and not (contained >= max(bar, CONTAINED) and ratio >= LENGTH_RATIO):
        return Verdict(False, score, f"the texts share {score:.0%} of their phrases (needs {bar:.0%})")
    slots = slot_changes(a, b)
    if slots:
        old, new = slots[0]
        return Verdict(False, score, f"one template with different figures ({old} → {new}): a series")
    return Verdict(True, score, f"the texts share {score:.0%} of their phrases")


def _at_end(start: int, length: int) -> bool:
    """Within the last `EDGE` words of a text long enough to have a footer apart from its body."""
    return length >= 3 * EDGE and start >= length - EDGE


def _is_slot(word: str) -> bool:
    return any(c.isdigit() for c in word) or word in _MONTHS
