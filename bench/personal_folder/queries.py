"""Labelled queries of five kinds, derived from what was really written, never typed in by hand.

Keyword and known-item queries are drawn from the files' own text, and their right answers are every
file that holds the words (copies included), computed, not assumed. Meaning queries are paraphrases
that share no content word with any right answer's text or path: a crude stemmer (lowercase, strip
s/es/ing/ed/ly, drop stop words) plus a shared-prefix rule decides, and `check_meaning` raises if one
slips through. Nonsense queries use letters and words found nowhere in the folder.
"""

from __future__ import annotations

import random
import re

from .plan import Entry, Plan

STOP = frozenset(
    (
        "a an and are as at be been but by can could did do does for from had has have how i if in "
        "into is it its "
        "me my mine no not of on or our so than that the their them then there these they this to "
        "up was we were "
        "what when where which who why will with would you your all any some one two about after before over "
        "under again also just more most other such only own same very too get got out off"
    ).split()
)
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def stem(word: str) -> str:
    for suffix in ("ing", "ed", "ly", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content(text: str) -> set[str]:
    """The stems of a text's content words: what a paraphrase must not share."""
    return {stem(w) for w in words(text) if w not in STOP and len(w) > 1}


def related(a: str, b: str) -> bool:
    """Same stem, one a prefix of the other (rent/rental), or the same first five letters."""
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 4 and long_.startswith(short)) or (len(short) >= 5 and a[:5] == b[:5])


def shared(query: str, entry: Entry) -> set[str]:
    theirs = content(f"{entry.text or ''} {entry.path}")
    return {q for q in content(query) if any(related(q, t) for t in theirs)}


def meaning(plan: Plan) -> list[tuple[str, frozenset[str]]]:
    """For each registered document, its first paraphrase that shares no word with any right answer."""
    by_doc: dict[str, list[Entry]] = {}
    for entry in plan.entries.values():
        by_doc.setdefault(entry.doc, []).append(entry)
    out = []
    for phrases, docs in plan.meanings:
        right = [e for d in docs for e in by_doc[d]]
        for phrase in phrases:
            if not any(shared(phrase, e) for e in right):
                out.append((phrase, frozenset(e.path for e in right)))
                break
    return out


def check_meaning(plan: Plan, queries: list[tuple[str, frozenset[str]]]) -> None:
    for text, relevant in queries:
        for path in relevant:
            common = shared(text, plan.entries[path])
            if common:
                raise ValueError(f"meaning query {text!r} shares {sorted(common)} with {path}")


def _tokens(entry: Entry) -> set[str]:
    return set(words(f"{entry.text or ''} {entry.path}"))


def keyword(plan: Plan, rng: random.Random, count: int) -> list[tuple[str, frozenset[str]]]:
    """Rare words (held by at most two documents) drawn from distinct documents."""
    tokens = {p: _tokens(e) for p, e in plan.entries.items()}
    docs_of: dict[str, set[str]] = {}
    for path, toks in tokens.items():
        for tok in toks:
            docs_of.setdefault(tok, set()).add(plan.entries[path].doc)
    sources = sorted(p for p, e in plan.entries.items() if e.text and e.copy_of is None)
    rng.shuffle(sources)
    out, used = [], set()
    for path in sources:
        rare = sorted(
            t
            for t in tokens[path]
            if t.isalpha() and len(t) >= 5 and t not in STOP and len(docs_of[t]) <= 2 and t not in used
        )
        if not rare:
            continue
        word = rng.choice(rare)
        used.add(word)
        out.append((word, frozenset(p for p, toks in tokens.items() if word in toks)))
        if len(out) == count:
            break
    return out


def _norm(text: str) -> str:
    return " ".join(words(text))


def known_item(plan: Plan, rng: random.Random, count: int) -> list[tuple[str, frozenset[str]]]:
    """3–5 consecutive words from one document's prose that no other document holds."""
    normed = {p: _norm(e.text or "") for p, e in plan.entries.items()}
    sources = sorted(
        p
        for p, e in plan.entries.items()
        if e.text and e.copy_of is None and e.fmt not in ("py", "toml", "csv")
    )
    rng.shuffle(sources)
    out = []
    for path in sources:
        raw = (plan.entries[path].text or "").split()
        if len(raw) < 12:
            continue
        for _attempt in range(6):
            n = rng.randint(3, 5)
            start = rng.randrange(0, len(raw) - n)
            phrase = " ".join(w.strip(".,;:!?()#*-\"'") for w in raw[start : start + n])
            key = _norm(phrase)
            if len([w for w in words(key) if w not in STOP and w.isalpha()]) < 2:
                continue
            relevant = frozenset(p for p, t in normed.items() if f" {key} " in f" {t} ")
            if len({plan.entries[p].doc for p in relevant}) == 1:
                out.append((phrase, relevant))
                break
        if len(out) == count:
            break
    return out


TOPICS = {
    "housing": "Documents/Housing",
    "taxes": "Documents/Taxes",
    "health": "Documents/Health",
    "finance": "Documents/Finance",
    "invoices": "Documents/Work/invoices",
    "meetings": "Documents/Work/meetings",
    "payslips": "Documents/Work/payslips",
    "reports": "Documents/Work/reports",
    "work": "Documents/Work",
    "travel": "Travel",
    "recipes": "Recipes",
    "journal": "Journal",
    "pictures": "Pictures",
    "code": "Code",
    "statements": "Documents/Finance/statements",
    # words a person uses for the same folders
    "cooking": "Recipes",
    "diary": "Journal",
    "photos": "Pictures",
    "medical": "Documents/Health",
    "trips": "Travel",
    "python": "Code",
    "money": "Documents/Finance",
}


def topic(plan: Plan) -> list[tuple[str, frozenset[str], str]]:
    """One word naming a folder; the right answers are its files, less any misfiled there."""
    out = []
    for word, folder in TOPICS.items():
        inside = frozenset(p for p in plan.entries if p.startswith(folder + "/") and p not in plan.misplaced)
        if inside:
            out.append((word, inside, folder))
    return out


def nonsense(plan: Plan, rng: random.Random, count: int, pool: tuple[str, ...]) -> list[str]:
    """Half letter strings, half salads of real words found nowhere in the folder."""
    seen = set().union(*(_tokens(e) for e in plan.entries.values()))
    stems = {stem(w) for w in seen}
    absent = [w for w in pool if w not in seen and stem(w) not in stems]
    out: list[str] = []
    while len(out) < count:
        if len(out) % 2:
            query = " ".join(rng.sample(absent, rng.randint(2, 3)))
        else:
            query = " ".join(
                "".join(
                    rng.choice("bcdfghjklmnpqrstvwxz") if i % 2 == 0 else rng.choice("aeiouy")
                    for i in range(rng.randint(5, 9))
                )
                for _ in range(rng.randint(1, 2))
            )
        if not any(w in seen for w in query.split()) and query not in out:
            out.append(query)
    return out
