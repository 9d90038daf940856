"""Names and folders are a field of their own: path words split on separators and case, stemmed like text,
scored by their share of the query's idf, and kept in step with every kind of keyword write."""

from __future__ import annotations

from engine.retrieval.keyword.index import POINT_FILES, KeywordIndex
from engine.retrieval.names import name_only, path_words
from engine.retrieval.terms import shared_matcher


def terms(query: str) -> frozenset[str]:
    return shared_matcher().query_terms(query)


def test_a_path_splits_on_separators_and_on_case():
    assert path_words("/home/me/Recipes/MeetingNotes-2024_v2.PDFReader.md") == [
        "home", "me", "Recipes", "Meeting", "Notes", "2024", "v2", "PDF", "Reader", "md",
    ]  # fmt: skip


def test_a_folder_word_names_every_file_beneath_it_and_a_stem_matches_its_plural(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/h/Recipes/soup.md", ["Leek soup."])
    index.upsert("/h/Recipes/bread.md", ["Sourdough."])
    index.upsert("/h/Travel/kyoto-bamboo.png", ["[binary] kyoto-bamboo.png"])
    assert index.name_scores(terms("recipe")) == {"/h/Recipes/soup.md": 1.0, "/h/Recipes/bread.md": 1.0}
    assert set(index.name_scores(terms("kyoto"))) == {"/h/Travel/kyoto-bamboo.png"}
    assert index.name_scores(terms("qwxzv")) == {}
    assert set(index.name_scores(terms("recipes"), scope="/h/Travel")) == set()
    index.close()


def test_a_partial_name_match_scores_its_share_of_the_query(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    for name in ("a", "b", "c", "d"):
        index.upsert(f"/h/Notes/{name}.md", ["x"])
    index.upsert("/h/Taxes/2024.md", ["x"])
    scores = index.name_scores(terms("taxes lemur"))
    assert 0.0 < scores["/h/Taxes/2024.md"] < 1.0
    index.close()


def test_name_words_follow_point_writes_bulk_writes_deletions_and_renames(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/h/Inbox/scan.pdf", ["text"])
    assert set(index.name_scores(terms("inbox"))) == {"/h/Inbox/scan.pdf"}  # filled now; hooks from here on

    index.upsert("/h/Inbox/more.pdf", ["text"])  # a point write
    bulk = [(f"/h/Archive/old{i}.txt", ["text"]) for i in range(POINT_FILES + 2)]
    index.upsert_many(bulk)  # a bulk write
    assert set(index.name_scores(terms("inbox"))) == {"/h/Inbox/scan.pdf", "/h/Inbox/more.pdf"}
    assert len(index.name_scores(terms("archive"))) == POINT_FILES + 2

    index.rename("/h/Inbox", "/h/Receipts")  # a folder moved: every file beneath takes its new words
    assert index.name_scores(terms("inbox")) == {}
    assert set(index.name_scores(terms("receipts"))) == {"/h/Receipts/scan.pdf", "/h/Receipts/more.pdf"}

    index.rename_many([("/h/Receipts/scan.pdf", "/h/Receipts/dentist-invoice.pdf")])
    assert set(index.name_scores(terms("dentist"))) == {"/h/Receipts/dentist-invoice.pdf"}

    index.delete("/h/Archive")
    index.upsert("/h/Receipts/more.pdf", [])  # an upsert of no chunks removes the file
    assert index.name_scores(terms("archive")) == {}
    assert set(index.name_scores(terms("receipts"))) == {"/h/Receipts/dentist-invoice.pdf"}
    index.close()


def test_a_reopened_index_reads_its_names_from_the_stored_paths(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/h/Pictures/IMG_2041.jpg", ["[binary] IMG_2041.jpg"])
    index.close()
    reopened = KeywordIndex(tmp_path / "k.duckdb")
    assert set(reopened.name_scores(terms("pictures"))) == {"/h/Pictures/IMG_2041.jpg"}
    reopened.close()


def test_a_chunk_holding_only_its_files_name_is_told_from_one_with_text():
    assert name_only("[binary] kyoto-bamboo.png", "/h/Pictures/kyoto-bamboo.png")
    assert name_only("[pdf] Scan_2024-03-02.pdf", "/h/Scan_2024-03-02.pdf")
    assert not name_only("[note] A trip to kyoto-bamboo.png", "/h/Pictures/kyoto-bamboo.png")
    assert not name_only("[note] Kyoto trip\n\nBamboo grove at dawn.", "/h/kyoto.md")


def test_a_chunk_of_a_name_and_its_descriptor_is_name_only_too():
    described = describe_file_chunk("/h/Pictures/zanzibar-a.png")
    assert name_only(described, "/h/Pictures/zanzibar-a.png")
    assert not name_only("[note] Zanzibar\n\nKind: of a trip, spice farms.", "/h/Pictures/zanzibar-a.png")


def describe_file_chunk(path: str) -> str:
    """What the indexer stores for a photo with EXIF: its header, metadata lines, then its descriptor."""
    from engine.indexing.descriptors import describe_file

    return f"[binary] zanzibar-a.png\n\nTaken: 17 May 2024 (May 2024)\n{describe_file(path)}"
