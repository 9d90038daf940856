"""Folder names are evidence by meaning: a folder's name is embedded once and compared with the query, a
file takes the best of the folders above it, and only folders that tell files apart count."""

from __future__ import annotations

import numpy as np
import pytest

from engine.retrieval import folder_names, relevance
from engine.retrieval.folder_names import FolderMeanings, folder_text, strengths
from engine.retrieval.names import NameIndex

AXES = {"Health": 0, "Recipes": 1, "Photo Sorter": 2}


def plain_stems(words):
    return {w: w.lower() for w in words}


def one_hot(texts: list[str]) -> np.ndarray:
    """A fake embedder: each known folder name on its own axis, anything else between them."""
    out = np.full((len(texts), 3), 0.5, dtype=np.float32)
    for row, text in enumerate(texts):
        if text in AXES:
            out[row] = 0.0
            out[row, AXES[text]] = 2.0  # not unit length: cosines are taken on unit vectors
    return out


def test_only_folders_that_tell_files_apart_count_and_a_collection_in_one_folder_has_none():
    names = NameIndex(plain_stems)
    names.add(["/home/me/Health/a.md", "/home/me/Health/b.md", "/home/me/Recipes/soup.md"])
    assert sorted(names.folders()) == ["/home/me/Health", "/home/me/Recipes"]  # not /home/me, /home
    assert sorted(names.folders(scope="/home/me")) == ["/home/me/Health", "/home/me/Recipes"]
    assert names.folders(scope="/home/me/Recipes") == []  # inside a scope, its own folder tells nothing
    flat = NameIndex(plain_stems)
    flat.add([f"/scifact/{i}" for i in range(5)])  # SciFact's layout: every document in one folder
    assert flat.folders() == []


def test_a_file_takes_the_best_score_of_the_folders_above_it_and_follows_removals():
    names = NameIndex(plain_stems)
    names.add(["/h/Code/PhotoSorter/core.py", "/h/Code/notes.md", "/h/Pictures/kyoto.png"])
    scores = names.beneath({"/h/Code": 0.4, "/h/Code/PhotoSorter": 0.6})
    assert scores == {"/h/Code/PhotoSorter/core.py": 0.6, "/h/Code/notes.md": 0.4}
    names.remove(["/h/Code"], subtrees=True)
    assert names.beneath({"/h/Code": 0.4}) == {}
    assert names.folders() == []  # one folder is left, holding every file


def test_a_folder_is_embedded_by_its_own_name_once_and_compared_by_cosine():
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return one_hot(texts)

    meanings = FolderMeanings(embed)
    query = np.array([3.0, 0.0, 0.0], dtype=np.float32)  # means "Health"
    cosines = meanings.cosines(query, ["/h/Health", "/h/Recipes", "/h/Code/PhotoSorter"])
    assert cosines["/h/Health"] == 1.0 and cosines["/h/Recipes"] == 0.0
    meanings.cosines(query, ["/h/Health", "/x/Health"])
    assert calls == [["Health", "Recipes", "Photo Sorter"]]  # each name embedded once, kept
    assert folder_text("/h/Code/PhotoSorter/") == "Photo Sorter"


def test_a_search_embeds_a_bounded_number_of_new_names_nearest_the_root_first(monkeypatch):
    monkeypatch.setattr(folder_names, "NEW_PER_SEARCH", 1)
    meanings = FolderMeanings(one_hot)
    query = np.array([0.0, 1.0, 0.0], dtype=np.float32)
    folders = ["/h/Code/PhotoSorter", "/h/Recipes"]
    assert set(meanings.cosines(query, folders)) == {"/h/Recipes"}  # the shallower one first
    assert set(meanings.cosines(query, folders)) == set(folders)  # the next search learns the other


def test_strength_is_how_far_a_cosine_lies_above_the_threshold():
    assert strengths({"a": 1.0, "b": 0.6, "c": 0.2}, 0.2) == {"a": 1.0, "b": pytest.approx(0.5)}


def test_a_hit_whose_folder_means_the_query_is_shown_on_that_evidence_alone():
    floor = relevance.Floor(lexical=0.3, semantic=0.5, margin=0.0, folder=0.4)
    ranked = [("in Health/", 0.2), ("elsewhere", 0.19)]
    evidence = {"in Health/": relevance.Evidence(folder=0.66), "elsewhere": relevance.Evidence(folder=0.39)}
    assert relevance.shown(ranked, evidence.__getitem__, floor) == [("in Health/", 0.2)]
