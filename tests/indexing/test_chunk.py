"""Chunking: structure-respecting boundaries, bounded size, word-aligned overlap, no empty chunks."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInput
from engine.indexing.chunk import chunk_text


def sentence(number: int) -> str:
    return f"Sentence number {number} talks about the garden shed."


def test_empty_and_whitespace_text_give_no_chunks():
    assert chunk_text("") == []
    assert chunk_text(" \n\n\t ") == []


def test_text_that_fits_is_one_chunk_with_its_own_formatting():
    assert chunk_text("  Title\n\nFirst line\nsecond line  ") == ["Title\n\nFirst line\nsecond line"]


def test_paragraphs_are_packed_together_until_the_next_one_does_not_fit():
    first, second, third = "a" * 300, "b" * 300, "c " * 300
    chunks = chunk_text(f"{first}\n\n{second}\n\n{third}", max_chars=700, overlap=50)
    assert chunks[0] == f"{first}\n\n{second}"


def test_long_paragraph_breaks_after_a_sentence_not_inside_one():
    text = " ".join(sentence(n) for n in range(40))
    chunks = chunk_text(text, max_chars=300, overlap=0)
    assert len(chunks) > 1
    assert all(chunk.endswith("shed.") for chunk in chunks)


def carried_over(previous: str, current: str) -> str:
    """The longest start of `current` that is also the end of `previous`."""
    return next((current[:n] for n in range(len(current), 0, -1) if previous.endswith(current[:n])), "")


def test_next_chunk_starts_with_the_end_of_the_previous_on_a_word_boundary():
    text = " ".join(sentence(n) for n in range(40))
    chunks = chunk_text(text, max_chars=300, overlap=60)
    for previous, current in itertools.pairwise(chunks):
        carried = carried_over(previous, current)
        assert 30 <= len(carried) <= 60
        assert previous[-len(carried) - 1] == " " and current[len(carried)] == " "


def test_a_long_run_without_punctuation_is_cut_between_words():
    text = " ".join(f"w{n:04d}" for n in range(1000))
    chunks = chunk_text(text, max_chars=200, overlap=20)
    assert all(re.fullmatch(r"w\d{4}( w\d{4})*", chunk) for chunk in chunks)
    assert {word for chunk in chunks for word in chunk.split()} == set(text.split())


def test_a_word_longer_than_a_chunk_is_cut_into_hard_windows():
    word = "".join(chr(ord("a") + n % 26) for n in range(2500))
    chunks = chunk_text(word, max_chars=1000, overlap=100)
    assert all(len(chunk) <= 1000 for chunk in chunks)
    assert "".join(chunks) == word


def test_lines_of_code_are_kept_whole_when_a_block_is_too_long():
    code = "\n".join(f"    total = total + value_{n}" for n in range(100))
    chunks = chunk_text(code, max_chars=400, overlap=0)
    assert all(line.startswith("total") for chunk in chunks for line in chunk.split("\n"))


def test_japanese_sentences_are_split_after_the_full_stop_and_overlap_whole_sentences():
    text = "".join(f"第{n}章の文です。" for n in range(60))
    chunks = chunk_text(text, max_chars=80, overlap=12)
    assert all(chunk.endswith("。") and len(chunk) <= 80 for chunk in chunks)
    for previous, current in itertools.pairwise(chunks):
        last_sentence = re.findall(r"第\d+章の文です。", previous)[-1]
        assert current.startswith(last_sentence)


def test_chunking_is_deterministic():
    text = "\n\n".join(" ".join(sentence(n) for n in range(p, p + 7)) for p in range(0, 70, 7))
    assert chunk_text(text, 256, 40) == chunk_text(text, 256, 40)


@pytest.mark.parametrize(("max_chars", "overlap"), [(0, 0), (100, 100), (100, -1)])
def test_impossible_sizes_are_invalid_input(max_chars, overlap):
    with pytest.raises(InvalidInput):
        chunk_text("some text", max_chars, overlap)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("abcde .!?\n\t日。")), max_size=3000),
    max_chars=st.integers(min_value=2, max_value=400),
    overlap_share=st.floats(min_value=0, max_value=0.9),
)
def test_chunks_are_bounded_non_empty_and_cover_every_word(text, max_chars, overlap_share):
    overlap = min(int(max_chars * overlap_share), max_chars - 1)
    chunks = chunk_text(text, max_chars, overlap)
    assert all(chunk and chunk == chunk.strip() and len(chunk) <= max_chars for chunk in chunks)
    covered = "".join(chunks)
    assert all(word in covered for word in text.split() if len(word) <= max_chars - overlap)
    assert (chunks == []) == (text.strip() == "")
