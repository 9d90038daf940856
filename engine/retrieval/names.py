"""Names and folders as a field of their own: the words of a file's path, searchable with their own weight.

People name things: a folder `Recipes/`, a photo `kyoto-bamboo.png`, a note `MeetingNotes-2024.md`. The
chunk text rarely repeats those words, so neither arm found "recipes" under Recipes/ (issue 28). Here
each indexed file's path is split into words (on separators and on case: `MeetingNotes` is "meeting" and
"notes"), stemmed exactly as the keyword index stems text (terms.TermMatcher), and kept in memory as a
small inverted index, file → words and word → files.

A query's name score for a file is the share of the query's idf mass its path holds, with idf counted
over files (a word in every path, such as the root's own folders, weighs nothing), so the score lies in
[0, 1] like the other arms' calibrated scores: 1 when every query term names the file or a folder above
it. Ranking and the relevance floor use it as evidence beside the keyword and dense arms (hybrid.py,
relevance.py).

The index follows the keyword index's writes (bm25.KeywordIndex calls `add`, `remove` and `rename`
after each commit), so a renamed or moved file's name words follow it without re-embedding; it is
filled from the keyword index's stored paths the first time a search asks for it (`fill`), so opening
the app costs nothing and an index of an older format needs no migration.
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping

from engine.retrieval.fusion import scope_prefix
from engine.retrieval.keyword import tokenize

Stemmer = Callable[[Iterable[str]], Mapping[str, str]]  # word -> stem ("" for a stop word)

_SEPARATORS = re.compile(rf"(?:{tokenize.IGNORE_PATTERN}|\s)+")
# a lower-case letter or digit followed by a capital, or a run of capitals before a capitalised word
_CASE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def path_words(path: str) -> list[str]:
    """The words of a path's segments: split on separators (`/ \\ _ - .` and the tokenizer's others) and
    on case (`MeetingNotes` -> `Meeting`, `Notes`; `PDFReader` -> `PDF`, `Reader`); not yet folded."""
    words: list[str] = []
    for part in _SEPARATORS.split(path):
        words.extend(w for w in _CASE.split(part) if w)
    return words


# the label of the line every descriptor of a name-only file holds (engine/indexing/descriptors.py writes it)
DESCRIPTOR_LABEL = "Kind: "


def name_only(text: str, path: str) -> bool:
    """Whether a chunk holds nothing but its file's name, or its name and what the indexer says around
    it: `[doc_type] name`, then for a file catalogued by name only (an image, an archive, a scan without
    text) its metadata and descriptor lines (kind, size, folder, sibling names). Its vector embeds a few
    name words and labels, near to anything short (a made-up word lands on `zanzibar-a.png`), so the dense
    arm's cosine on it is no evidence; its name is evidence through this field and its metadata and
    descriptor words through the keyword arm."""
    first, _, rest = text.partition("\n")
    head = "] " + os.path.basename(path.rstrip("/\\"))
    header = first.startswith("[") and first.endswith(head) and first.find("] ") == len(first) - len(head)
    return header and (not rest or (rest.startswith("\n") and "\n" + DESCRIPTOR_LABEL in rest))


def folders_of(path: str) -> list[str]:
    """The folders above a path, nearest first, up to the filesystem's root (excluded)."""
    out = []
    parent = os.path.dirname(path)
    while parent and parent != os.path.dirname(parent):
        out.append(parent)
        parent = os.path.dirname(parent)
    return out


def _discard(index: dict[str, set[str]], key: str, path: str) -> None:
    holders = index.get(key)
    if holders is not None:
        holders.discard(path)
        if not holders:
            del index[key]


def idf(files: int, df: int) -> float:
    """BM25's idf (tokenize.py's formula, keyword_writes.idf) counted over files."""
    return math.log((files - df + 0.5) / (df + 0.5) + 1.0)


class NameIndex:
    """In-memory path words of every indexed file; see the module docstring. Thread-safe."""

    def __init__(self, stem: Stemmer):
        self._stem = stem
        self._lock = threading.Lock()
        self._words: dict[str, frozenset[str]] = {}  # path -> its stemmed words
        self._files: dict[str, set[str]] = {}  # stemmed word -> paths holding it
        self._under: dict[str, set[str]] = {}  # folder -> the paths beneath it (folder_names.py)
        self.filled = False

    def fill(self, paths: Iterable[str]) -> None:
        """Load every indexed path (the first search's call; later writes arrive through add/remove)."""
        self.add(paths)
        self.filled = True

    def add(self, paths: Iterable[str]) -> None:
        """Index these paths (a path already known is re-read: its words may be new)."""
        paths = list(paths)
        if not paths:
            return
        split = {path: path_words(path) for path in paths}
        stems = self._stem({w for words in split.values() for w in words})
        with self._lock:
            for path, words in split.items():
                self._drop(path)
                stemmed = frozenset(s for s in (stems.get(w, "") for w in words) if s)
                self._words[path] = stemmed
                for word in stemmed:
                    self._files.setdefault(word, set()).add(path)
                for folder in folders_of(path):
                    self._under.setdefault(folder, set()).add(path)

    def replace(self, removed: Iterable[str], added: Iterable[str]) -> None:
        """An upsert: the `removed` paths' words forgotten, the `added` paths' read."""
        self.remove(removed)
        self.add(added)

    def remove(self, paths: Iterable[str], subtrees: bool = False) -> None:
        """Forget these paths (and, with `subtrees`, every path beneath them)."""
        with self._lock:
            for path in list(self._beneath(paths) if subtrees else paths):
                self._drop(path)

    def rename(self, old: str, new: str) -> None:
        """A file or folder moved: every path at or beneath `old` takes its new words."""
        with self._lock:
            moved = list(self._beneath([old]))
            for path in moved:
                self._drop(path)
        self.add(new + path[len(old) :] for path in moved)

    def _beneath(self, roots: Iterable[str]) -> Iterable[str]:
        roots = list(roots)
        prefixes = tuple(scope_prefix(root) for root in roots)
        wanted = set(roots)
        return [path for path in self._words if path in wanted or path.startswith(prefixes)]

    def _drop(self, path: str) -> None:
        if path not in self._words:
            return
        for word in self._words.pop(path):
            _discard(self._files, word, path)
        for folder in folders_of(path):
            _discard(self._under, folder, path)

    def __len__(self) -> int:
        return len(self._words)

    def folders(self, scope: str | None = None) -> list[str]:
        """The folders that tell files apart: those holding some indexed file but not every one (the
        root's own folders and those above it name everything, so nothing); with a `scope`, those
        strictly inside it (the scope and the folders above it hold every file searched)."""
        with self._lock:
            files = len(self._words)
            held = [folder for folder, paths in self._under.items() if len(paths) < files]
        if scope is None:
            return held
        inside = scope_prefix(scope)
        return [folder for folder in held if folder.startswith(inside)]

    def beneath(self, scores: Mapping[str, float], scope: str | None = None) -> dict[str, float]:
        """path -> the best of `scores` (folder -> score) over the folders above it, inside `scope`."""
        found: dict[str, float] = {}
        with self._lock:
            for folder, score in scores.items():
                for path in self._under.get(folder, ()):
                    found[path] = max(score, found.get(path, score))
        if scope is not None:
            inside = scope_prefix(scope)
            found = {p: s for p, s in found.items() if p == scope or p.startswith(inside)}
        return found

    def scores(self, terms: Iterable[str], scope: str | None = None) -> dict[str, float]:
        """path -> the share of the query terms' idf mass (over files) its path words hold, for every
        path inside `scope` that holds at least one term of weight; `terms` are stemmed query terms.

        A word in many paths ("usr", "Documents") gives thousands of scores, and a path's score depends
        only on which of the query's terms it holds, so the paths are split by that (set algebra, in C)
        and each group's score is given to its paths at once: a name-heavy query's name step fell from
        ~6 to ~1 ms at 100k chunks (issue 30; tests/retrieval/test_name_scores.py holds it equal to
        adding the terms' shares path by path)."""
        terms = [t for t in set(terms) if t]
        with self._lock:
            files = len(self._words)
            weights = {t: idf(files, len(self._files.get(t, ()))) for t in terms}
            total = math.fsum(weights.values())
            if total <= 0:
                return {}
            groups: list[tuple[float, set[str]]] = []  # (score, the paths holding exactly those terms)
            seen: set[str] = set()
            for term in sorted(weights):
                weight = weights[term]
                held = self._files.get(term, set())
                if weight <= 0 or not held:
                    continue
                share = weight / total
                split = []
                for score, paths in groups:
                    both = paths & held
                    if both:
                        split.append((score + share, both))
                        paths = paths - held
                    if paths:
                        split.append((score, paths))
                fresh = held - seen
                if fresh:
                    split.append((share, fresh))
                    seen |= fresh
                groups = split
        found: dict[str, float] = {}
        for score, paths in groups:
            found.update(dict.fromkeys(paths, min(score, 1.0)))
        if scope is not None:
            inside = scope_prefix(scope)
            found = {p: s for p, s in found.items() if p == scope or p.startswith(inside)}
        return found
