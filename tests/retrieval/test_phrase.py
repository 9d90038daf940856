"""The query's words as typed: a known item copied from a document finds it (keyword/phrase.py, issue 28)."""

from __future__ import annotations

import pytest

from engine.embed import HashingEmbedder
from engine.retrieval.fusion import with_phrases
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword import phrase
from tests.retrieval.helpers import filled_stores

# Payslips of one template hold "paid" and "account" twice each, in a short chunk: BM25 ranks every one
# of them above the tax return, which holds each word once in a longer text, but holds the query as typed.
PAYSLIPS = {
    f"/home/Work/payslips/payslip-2024-{month:02d}.txt": [
        f"Payslip {month:02d}/2024. Net pay paid to account 4411. Paid by transfer, account checked."
    ]
    for month in range(1, 9)
}
TEXTS = {
    **PAYSLIPS,
    "/home/Taxes/tax-return-2023.txt": [
        "Tax return 2023. The refund of 412 euros will be paid into the account you gave us within six "
        "weeks, unless the office asks for more documents about your income, deductions or the home office."
    ],
    "/home/Recipes/pad-thai.txt": [
        "Pad thai. Soak the noodles. Heat the wok and taste the sauce before anything goes in: sweet, "
        "sour, salty."
    ],
    "/home/Recipes/curry.txt": ["Green curry. Fry the paste, then the coconut milk; check the rice."],
    "/home/Car/service.txt": ["Car service. Brakes checked, tyres rotated, oil changed."],
}


@pytest.fixture
def search(tmp_path):
    embedder = HashingEmbedder(64)
    keywords, vectors = filled_stores(tmp_path, TEXTS, embedder)
    yield HybridSearch(keywords, vectors, embedder, exists=lambda _path: True)
    keywords.close()


def test_a_phrase_of_common_words_finds_the_document_that_holds_it_first(search):
    assert search.search("paid into the account")[0].path == "/home/Taxes/tax-return-2023.txt"


def test_without_the_typed_words_the_payslips_outrank_it(search):
    search.phrase_weight = 0.0  # what the rule changes: the same search without it
    assert search.search("paid into the account")[0].path != "/home/Taxes/tax-return-2023.txt"


def test_a_phrase_of_stop_words_alone_finds_the_recipe_that_holds_it(search):
    assert search.search("before anything goes")[0].path == "/home/Recipes/pad-thai.txt"


def test_the_keyword_arm_finds_a_phrase_of_stop_words_by_its_text_inside_the_scope(search):
    inside = search.keywords.answer("before anything goes", 50, "/home/Recipes")
    assert [hit.path for hit in inside.hits] == ["/home/Recipes/pad-thai.txt"]
    assert search.keywords.answer("before anything goes", 50, "/home/Taxes").hits == []


def test_a_word_as_typed_ranks_the_file_holding_that_form_first(search):
    # "checked" and "check" share a stem; the payslips and the curry hold other forms or more of them
    assert search.search("brakes checked")[0].path == "/home/Car/service.txt"


@pytest.mark.parametrize(
    ("query", "text", "expected"),
    [
        ("paid into the account", "It will be paid into the account soon.", phrase.PHRASE),
        ("Paid INTO the account", "paid, into: the (account)", phrase.PHRASE),
        ("paid into the account", "The account: paid into it by the bank.", phrase.ALL_WORDS),
        ("paid into the account", "paid to the account", 0.0),
        ("the account", "theaccount holder", 0.0),
        ("check", "checked twice", 0.0),
        ("checked", "brakes checked", phrase.PHRASE),
        ("", "anything", 0.0),
    ],
)
def test_strength_is_phrase_then_all_words_then_nothing(query, text, expected):
    assert phrase.strength(phrase.typed_words(query), text) == expected


def test_a_descriptor_chunk_is_not_asked():
    texts = {"a": "image of a cat", "b": "[image] cat.png\n\nKind: image"}
    assert phrase.strengths("image", texts, lambda key, text: key == "b") == {"a": phrase.PHRASE}


def test_only_a_text_that_holds_the_words_is_asked_whether_it_is_a_descriptor():
    texts = {"a": "image of a cat", "b": "[image] cat.png\n\nKind: image", "c": "a dog", "d": "no words"}
    asked: list[str] = []
    found = phrase.strengths("image", texts, lambda key, text: asked.append(key) or key == "b")
    assert found == {"a": phrase.PHRASE}
    assert asked == ["a", "b"]  # the descriptor test splits each text: it runs after the substring tests


def test_texts_asked_ahead_are_not_asked_again_after_the_arms(monkeypatch):
    phrase._kept_strength.cache_clear()
    keyword_texts = {"a": "the tax return of 2024", "b": "other text"}
    phrase.ahead("tax return", keyword_texts)  # the keyword arm's, while the vector search runs
    asked: list[str] = []
    real = phrase.strength
    monkeypatch.setattr(phrase, "strength", lambda words, text: asked.append(text) or real(words, text))
    found = phrase.strengths("tax return", {**keyword_texts, "c": "a return of tax"})
    assert found == {"a": phrase.PHRASE, "c": phrase.ALL_WORDS}
    assert asked == ["a return of tax"]  # only the vector arm's own text


def test_with_phrases_moves_a_phrase_match_above_a_stronger_partial_match():
    fused = [("payslip", 0.6), ("tax return", 0.4), ("other", 0.3)]
    moved = with_phrases(fused, {"tax return": phrase.PHRASE}, 0.5)
    assert [key for key, _ in moved] == ["tax return", "payslip", "other"]
    assert moved[0][1] == pytest.approx(0.7)  # half of the way from 0.4 to 1
    assert with_phrases(fused, {"tax return": 1.0}, 0.0) == fused
