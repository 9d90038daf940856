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
        "under again also just more most other such only own same very too get got out off another each every"
    ).split()
)
_WORD = re.compile(r"[a-z0-9]+")
_NAME = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{3,}")  # a capitalised word inside a sentence: a name
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def stem(word: str) -> str:
    """Crude on purpose: strip one of s/es/ing/ed/ly, then a final e (bakes, baked, baking -> bak)."""
    for suffix in ("ing", "ed", "ly", "es", "s"):
        if suffix == "es" and not word.endswith(("ses", "xes", "zes", "ches", "shes")):
            continue
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


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


def _interleaved(plan: Plan, rng: random.Random, skip: tuple[str, ...] = ()) -> list[str]:
    """Originals with text, shuffled, then dealt one folder at a time so no folder dominates."""
    by_folder: dict[str, list[str]] = {}
    for path, entry in sorted(plan.entries.items()):
        if entry.text and entry.copy_of is None and entry.fmt not in skip:
            by_folder.setdefault(path.rsplit("/", 1)[0], []).append(path)
    for paths in by_folder.values():
        rng.shuffle(paths)
    folders = sorted(by_folder)
    rng.shuffle(folders)
    longest = max(len(paths) for paths in by_folder.values())
    return [by_folder[f][i] for i in range(longest) for f in folders if i < len(by_folder[f])]


def keyword(plan: Plan, rng: random.Random, count: int) -> list[tuple[str, frozenset[str]]]:
    """A distinctive word (a name, or a long word held by at most two documents), sometimes two.

    A few come from the names of files that hold no text (a photo called kyoto-arashiyama.png, a
    song), which search can only find by their name.
    """
    tokens = {p: _tokens(e) for p, e in plan.entries.items()}
    docs_of: dict[str, set[str]] = {}
    for path, toks in tokens.items():
        for tok in toks:
            docs_of.setdefault(tok, set()).add(plan.entries[path].doc)
    out: list[tuple[str, frozenset[str]]] = []
    used: set[str] = set()

    def ask(chosen: list[str]) -> None:
        used.update(chosen)
        out.append((" ".join(chosen), frozenset(p for p, toks in tokens.items() if set(chosen) <= toks)))

    named_only = sorted(p for p, e in plan.entries.items() if e.text is None)
    rng.shuffle(named_only)
    named_only.sort(key=lambda p: not p.startswith("Pictures/"))  # a named photo first, then the rest
    for path in named_only:
        stem = path.rsplit("/", 1)[1].rsplit(".", 1)[0]
        rare = sorted(t for t in words(stem) if t.isalpha() and len(t) >= 4 and len(docs_of[t]) <= 2)
        if rare and len(out) < max(1, count // 8):
            ask([rng.choice(rare)])
    for path in _interleaved(plan, rng):
        named = set(words(" ".join(_NAME.findall(plan.entries[path].text or ""))))
        rare = sorted(
            t
            for t in tokens[path]
            if t.isalpha()
            and t not in STOP
            and t not in used
            and len(docs_of[t]) <= 2
            and (len(t) >= 7 or (t in named and len(t) >= 4))
        )
        if len(out) == count:
            break
        if rare:
            ask(rng.sample(rare, 2 if len(rare) > 3 and rng.random() < 0.3 else 1))
    return out


def _norm(text: str) -> str:
    return " ".join(words(text))


def known_item(plan: Plan, rng: random.Random, count: int) -> list[tuple[str, frozenset[str]]]:
    """3–5 consecutive words from one line of one document's prose that no other document holds."""
    normed = {p: f" {_norm(e.text or '')} " for p, e in plan.entries.items()}
    out: list[tuple[str, frozenset[str]]] = []
    for path in _interleaved(plan, rng, skip=("py", "toml", "csv")):
        sentences = _SENTENCE.split(plan.entries[path].text or "")
        lines = [s.split() for s in sentences if len(s.split()) >= 5]
        for _attempt in range(8 if lines else 0):
            line = rng.choice(lines)
            n = rng.randint(3, 5)
            start = rng.randrange(0, len(line) - n + 1)
            phrase = " ".join(w.strip(".,;:!?()#*-\"'`") for w in line[start : start + n])
            key = _norm(phrase)
            if len(key.split()) != n or len([w for w in key.split() if w not in STOP and w.isalpha()]) < 2:
                continue
            relevant = frozenset(p for p, t in normed.items() if f" {key} " in t)
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
    "car": "Documents/Car",
    "career": "Documents/Career",
    "music": "Music",
    "learning": "Documents/Learning",
    "personal": "Documents/Personal",
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
