"""Conversations as the Engine stores them: every turn kept, truncated for regenerate and edit, renamed,
deleted, listed and filtered, and still there for a new Engine on the same home."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agent import Call, FunctionModel, ScriptedModel
from engine.agent.conversations import TRACE_RESULT_CHARS, title_of
from engine.config import ReasoningSettings
from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.errors import NotFound


def _docs(tmp_path: Path) -> Path:
    root = tmp_path / "Docs"
    root.mkdir()
    (root / "invoice-acme.txt").write_text("Invoice from ACME Corp, 1250 EUR for consulting in March.")
    (root / "trip.md").write_text("# Lisbon trip\nFlights and a hotel in Alfama. " + "Lisbon " * 600)
    return root


def _engine(tmp_path: Path, model) -> Engine:
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder(), chat_model=model)
    engine.running.settings.reasoning = ReasoningSettings(enabled=True, model="scripted")
    return engine


def _user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def _answer(text: str) -> dict[str, str]:
    return {"role": "assistant", "content": text}


def test_every_turn_is_stored_with_trace_sources_and_model_and_survives_a_new_engine(tmp_path):
    root = _docs(tmp_path)
    trip = str(root / "trip.md")
    model = ScriptedModel(
        [
            [Call("search_files", {"query": "ACME"})],
            [Call("read_file", {"path": trip})],
            "ACME billed 1250 EUR (invoice-acme.txt).",
            "You went to Lisbon.",
        ]
    )
    engine = _engine(tmp_path, model)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        first = engine.chat_with_assistant([_user("  What did   ACME bill me?  ")])
        cid = first.conversation_id
        engine.chat_with_assistant(
            [_user("What did ACME bill me?"), _answer(first.answer), _user("And the trip?")],
            conversation_id=cid,
        )
    finally:
        engine.running.close()

    again = Engine(tmp_path / "home", embedder=HashingEmbedder())
    try:
        listed = [c.model_dump() for c in again.list_conversations()]  # the JSON the page reads
        stored = again.get_conversation(cid)
    finally:
        again.running.close()
    assert listed == [
        {
            "conversation_id": cid,
            "title": "What did ACME bill me?",
            "updated_at": listed[0]["updated_at"],
            "turns": 2,
        }
    ]
    one, two = stored.turns
    assert (one.user, one.answer, one.status, one.model) == (
        "  What did   ACME bill me?  ",
        "ACME billed 1250 EUR (invoice-acme.txt).",
        "done",
        "scripted",
    )
    assert [(t["label"], t["tool"], t["arguments"]) for t in one.trace] == [
        ("🔍 Searching: ACME", "search_files", {"query": "ACME"}),
        ("📄 Reading: trip.md", "read_file", {"path": trip}),
    ]
    assert "invoice-acme.txt" in one.trace[0]["result"]
    assert (
        len(one.trace[1]["result"]) < TRACE_RESULT_CHARS + 60 and "more characters" in one.trace[1]["result"]
    )
    assert str(root / "invoice-acme.txt") in [s["path"] for s in one.sources]
    assert two.user == "And the trip?" and two.answer == "You went to Lisbon."
    assert "## You" in stored.markdown and "[invoice-acme.txt](file://" in stored.markdown


def test_regenerate_and_edit_truncate_the_conversation_at_that_turn(tmp_path):
    replies = iter(["one", "two", "two again", "edited one"])
    engine = _engine(tmp_path, FunctionModel(lambda _m, _t: next(replies)))
    try:
        cid = engine.chat_with_assistant([_user("first")]).conversation_id
        engine.chat_with_assistant([_user("first"), _answer("one"), _user("second")], conversation_id=cid)
        # Regenerate: the same history without the last answer replaces turn 1.
        regenerated = engine.chat_with_assistant(
            [_user("first"), _answer("one"), _user("second")], conversation_id=cid
        )
        after_regenerate = [(t.user, t.answer) for t in engine.get_conversation(cid).turns]
        # Edit the first question: everything from turn 0 on is replaced.
        engine.chat_with_assistant([_user("first, edited")], conversation_id=cid)
        after_edit = [(t.user, t.answer) for t in engine.get_conversation(cid).turns]
    finally:
        engine.running.close()
    assert regenerated.answer == "two again"
    assert after_regenerate == [("first", "one"), ("second", "two again")]
    assert after_edit == [("first, edited", "edited one")]


def test_rename_delete_list_filter_and_unknown_ids(tmp_path):
    engine = _engine(tmp_path, FunctionModel(lambda m, _t: "Answer about " + m[-1]["content"]))
    try:
        trip = engine.chat_with_assistant([_user("Plan the Lisbon trip")]).conversation_id
        taxes = engine.chat_with_assistant([_user("Which invoices are unpaid?")]).conversation_id
        newest_first = [c.conversation_id for c in engine.list_conversations()]
        engine.rename_conversation(trip, "Holidays 2024")
        by_title = [c.title for c in engine.list_conversations("holidays")]
        by_answer = [c.conversation_id for c in engine.list_conversations("about which INVOICES")]
        engine.delete_conversation(taxes)
        remaining = [c.conversation_id for c in engine.list_conversations()]
        with pytest.raises(NotFound):
            engine.chat_with_assistant([_user("hello")], conversation_id="nope")
        with pytest.raises(NotFound):
            engine.get_conversation(taxes)
        with pytest.raises(NotFound):
            engine.rename_conversation("nope", "x")
    finally:
        engine.running.close()
    assert newest_first == [taxes, trip]
    assert by_title == ["Holidays 2024"]
    assert by_answer == [taxes]
    assert remaining == [trip]


def test_a_failed_turn_is_stored_as_an_error_and_keeps_its_question(tmp_path):
    from engine.errors import EndpointError

    engine = _engine(tmp_path, ScriptedModel([EndpointError("Cannot reach the reasoning endpoint.")]))
    try:
        result = engine.chat_with_assistant([_user("hello?")])
        turn = engine.get_conversation(result.conversation_id).turns[0]
    finally:
        engine.running.close()
    assert result.error["code"] == "endpoint"
    assert (turn.user, turn.status, turn.error["code"]) == ("hello?", "error", "endpoint")


def test_titles_are_the_first_question_on_one_line_cut_at_a_word():
    assert title_of("  Where   are\nmy invoices? ") == "Where are my invoices?"
    long = title_of("word " * 40)
    assert long.endswith("…") and len(long) <= 81 and "  " not in long
    assert title_of("") == "New chat"


def test_a_turn_that_crashes_is_stored_as_an_error_not_as_a_finished_answer(tmp_path):
    def broken(_messages, _tools):
        raise RuntimeError("a bug in a fake")

    engine = _engine(tmp_path, FunctionModel(broken))
    try:
        with pytest.raises(RuntimeError):
            engine.chat_with_assistant([_user("hello?")])
        turn = engine.get_conversation(engine.list_conversations()[0].conversation_id).turns[0]
    finally:
        engine.running.close()
    assert (turn.status, turn.error["code"]) == ("error", "internal")
