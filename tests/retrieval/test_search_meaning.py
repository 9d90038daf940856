"""Search finds what people mean, with the product's model and floor (issue 28): a paraphrase that shares
no word with its file, a one-word folder topic, a photo known only by its name, and still nothing for
gibberish. Indexed by the real Engine, as a person's folder is."""

from __future__ import annotations

import json
import os

import pytest

from engine.engine import Engine
from engine.retrieval import relevance

pytestmark = pytest.mark.model

FILES = {
    "Pets/milo-checkup.md": "Milo's yearly check-up at the veterinary clinic: vaccinations renewed, weight "
    "4.2 kg, claws trimmed. Next appointment in March.",
    "Finance/mortgage-offer.txt": "Mortgage offer from Northbank: 25-year term, 3.9% fixed rate, monthly "
    "repayment 1,240 EUR on the purchase of 14 Elm Road.",
    "Work/standup.md": "Standup: the release slipped one week; QA found two blockers in the export.",
    "Recipes/leek-soup.md": "Leeks, potatoes and stock; simmer twenty minutes, blend, season.",
    "Recipes/flatbread.md": "Flour, water, salt and oil; roll thin and cook in a hot dry pan.",
    "Recipes/lentil-dal.md": "Red lentils, turmeric, cumin and garlic; simmer until soft.",
    "Letters/aunt.md": "Thank you for the cookery book you sent; the soup chapter is wonderful.",
    "Health/blood-test.md": "Blood test: cholesterol 4.1 mmol/L, iron within range; retest next spring.",
    "Health/dentist.md": "Dentist: one filling on the lower left molar, cleaning booked for October.",
    "Car/2291-B.txt": "Ref 2291-B: pads and discs, labour 2.0 h, 312 EUR, paid by card.",
    "Code/sorter.py": "def sort_photos(folder):\n    return sorted(folder.iterdir(), key=taken_at)",
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("meaning")
    root = tmp / "Home"
    for relative, text in FILES.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text + "\n", encoding="utf-8")
    (root / "Pictures").mkdir()
    (root / "Pictures" / "kyoto-bamboo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    (root / "Downloads").mkdir()
    (root / "Downloads" / "code_1.89.1_amd64.deb").write_bytes(b"!<arch>\n" + bytes(range(256)) * 8)
    home = tmp / "sensetree"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"indexing": {"qualify_with_model": False}}))
    engine = Engine(home)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    assert engine.parts.search.floor == relevance.RELEVANCE  # the product's floor is in force
    yield engine, os.path.realpath(root)
    engine.running.close()


def found(engine, query: str) -> list[str]:
    built, root = engine
    return [os.path.relpath(r.path, root) for r in built.parts.search.search(query, limit=10)]


@pytest.mark.parametrize(
    ("query", "path"),
    [("animal doctor visit", "Pets/milo-checkup.md"), ("loan to buy a house", "Finance/mortgage-offer.txt")],
)
def test_a_paraphrase_sharing_no_word_with_its_file_is_found(engine, query, path):
    assert path in found(engine, query)[:3]


def test_a_paraphrase_far_from_its_files_text_is_found_through_the_folders_name(engine):
    # the query's cosine with "Car" (0.395) lies above FOLDER_EVIDENCE as calibrated on small and full
    # folders together (0.3702), under the small folders' alone (0.4124): that floor answered "No matches"
    assert "Car/2291-B.txt" in found(engine, "what the mechanic charged to fix my automobile")[:3]


def test_a_one_word_folder_topic_returns_that_folders_files_first(engine):
    shown = found(engine, "recipes")
    assert shown[0].startswith("Recipes/")
    assert {p for p in shown[:3]} == {"Recipes/leek-soup.md", "Recipes/flatbread.md", "Recipes/lentil-dal.md"}


def test_a_one_word_topic_naming_a_folder_by_another_word_returns_that_folders_files_first(engine):
    assert set(found(engine, "medical")[:2]) == {"Health/blood-test.md", "Health/dentist.md"}


def test_a_photo_with_no_text_is_found_by_a_word_that_means_its_folder(engine):
    # shown among the first: a file whose text holds the very word typed may rank above it (the words
    # as typed, keyword/phrase.py; on the held-out full folders that rule lifts one-word keyword queries
    # 88.3 -> 98.3 % and topic queries 92.6 -> 96.3 % top-1, bench/search_meaning.py)
    assert "Pictures/kyoto-bamboo.png" in found(engine, "photos")[:2]


def test_a_one_word_topic_naming_a_folder_finds_it_before_a_file_whose_name_holds_the_word(engine):
    assert found(engine, "code")[0] == "Code/sorter.py"


def test_a_photo_catalogued_by_name_only_is_found_by_its_name(engine):
    assert found(engine, "kyoto")[0] == "Pictures/kyoto-bamboo.png"


@pytest.mark.parametrize("query", ["qwxzv plorkt", "zzkrbl vlorp", "mumblefrotz snarkle quibbet"])
def test_gibberish_finds_nothing(engine, query):
    assert found(engine, query) == []
