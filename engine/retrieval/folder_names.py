"""Folder names as evidence by meaning: the query compared with each folder's name by the embedding model.

People ask for a folder by a word of their own: "medical" for Health/, "money" for Finance/, "cooking"
for Recipes/, "diary" for Journal/. The name field (names.py) matches the words a path holds, so it
finds none of these; the files' text often does not say the folder's word either, and a folder of
photos holds no text at all (issue 28). Here each folder that tells files apart (names.NameIndex.folders:
not the root's own folders, which hold every file) is embedded by its own name's words ("Health",
"photo sorter"), once, and kept; a query's cosine with a folder is that folder's evidence, and a file
takes the best of the folders above it.

How it is used (hybrid.py): a cosine above relevance.FOLDER_EVIDENCE is evidence a hit is shown
(calibrated like the other thresholds, above what nonsense reaches: relevance.py); in the ranking a
file moves `FOLDER_WEIGHT * strength` of the way to the top (fusion.with_names), where the strength is
how far the cosine lies above that threshold, on [0, 1]. The rule holds for any folder names and any
words, since it is the model's similarity, not a list of synonyms.

The cosine is the packaged model's (relevance.RELEVANCE_FLOOR_MODEL): with another embedder the
threshold means nothing, so hybrid.py uses this evidence only where the floor is calibrated.

Cost: a search embeds at most NEW_PER_SEARCH folder names it has not seen (the shared 2-core test
machine, loaded, embedded 11 a second; an idle laptop many more), so a tree of thousands of folders
gains its folder evidence over its first searches rather than making the first one wait for all of
them; each search compares the query with every embedded folder in one matrix product.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from engine.retrieval.names import path_words

BATCH = 64  # folder names embedded per call
NEW_PER_SEARCH = 256  # folder names one search embeds at most; the rest wait for the next searches


def folder_text(folder: str) -> str:
    """What a folder is embedded as: its own name's words (`MeetingNotes` -> "Meeting Notes")."""
    return " ".join(path_words(os.path.basename(folder.rstrip("/\\"))))


class FolderMeanings:
    """Folder-name vectors, embedded on first need and kept (one per distinct name); thread-safe."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray]):
        self._embed = embed
        self._lock = threading.Lock()
        self._vectors: dict[str, np.ndarray] = {}  # folder text -> its unit vector
        self._texts: dict[str, str] = {}  # folder -> its text (split once, not at every search)

    def _text(self, folder: str) -> str:
        text = self._texts.get(folder)
        if text is None:
            text = self._texts[folder] = folder_text(folder)
        return text

    def cosines(self, query: np.ndarray, folders: Sequence[str]) -> dict[str, float]:
        """folder -> the cosine of `query` (a query vector) with the folder's name."""
        texts = {folder: self._text(folder) for folder in folders}
        texts = {folder: text for folder, text in texts.items() if text}
        if not texts:
            return {}
        self._learn(self._unseen(texts))
        with self._lock:
            texts = {folder: text for folder, text in texts.items() if text in self._vectors}
            if not texts:
                return {}
            matrix = np.stack([self._vectors[text] for text in texts.values()])
        unit = np.asarray(query, dtype=np.float32)
        unit = unit / max(float(np.linalg.norm(unit)), 1e-12)
        return dict(zip(texts, (float(c) for c in matrix @ unit), strict=True))

    def _unseen(self, texts: Mapping[str, str]) -> list[str]:
        """At most NEW_PER_SEARCH names not embedded yet, of the folders nearest the root first (they
        hold the most files, and a topic names a top folder more often than a deep one)."""
        by_depth = sorted(texts, key=lambda folder: (folder.count("/") + folder.count("\\"), folder))
        out: dict[str, None] = {}
        with self._lock:
            for folder in by_depth:
                if texts[folder] not in self._vectors:
                    out[texts[folder]] = None
                    if len(out) == NEW_PER_SEARCH:
                        break
        return list(out)

    def _learn(self, missing: list[str]) -> None:
        for start in range(0, len(missing), BATCH):
            part = missing[start : start + BATCH]
            vectors = np.asarray(self._embed(part), dtype=np.float32)
            norms = np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
            with self._lock:
                self._vectors.update(zip(part, vectors / norms, strict=True))


def strengths(cosines: Mapping[str, float], threshold: float) -> dict[str, float]:
    """folder -> how far its cosine lies above `threshold`, on [0, 1] (1 = the cosine is 1); only the
    folders above it."""
    span = max(1.0 - threshold, 1e-9)
    return {folder: min((c - threshold) / span, 1.0) for folder, c in cosines.items() if c > threshold}
