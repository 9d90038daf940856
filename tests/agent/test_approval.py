"""Tool approval (DESIGN §2a): an MCP tool runs without asking only when its server declares it
read-only or the person allowed it for good; everything else waits for the person's answer."""

from __future__ import annotations

import pytest

from engine.agent import Call, ScriptedModel
from engine.agent.approval import ALWAYS, ASKS, READ_ONLY, declared_read_only, tool_status
from engine.errors import InvalidInput, NotFound
from engine.events import AGENT_RESULT, AGENT_STEP, TOOL_APPROVAL
from engine.results import Done
from tests.agent.approval_support import WAIT_S, ApprovalWatcher, files_server, turn_in_background
from tests.agent.helpers import FolderHost, chat_settings

ASK = [{"role": "user", "content": "update my note"}]
WRITE = [Call("mcp__files__write_note", {"name": "todo.txt", "text": "HACKED"})]


def _agent(make_agent, notes, steps, settings=None):
    """An agent over the files server in `notes` with a scripted model; the events it saw; its questions."""
    model = ScriptedModel(steps)
    agent, bus, seen = make_agent(
        FolderHost([notes]), model, settings=settings, mcp_in_process={"files": files_server(notes)}
    )
    return model, agent, ApprovalWatcher(bus), seen


def _tool_messages(model: ScriptedModel, request: int) -> list[str]:
    return [m["content"] for m in model.requests[request].messages if m["role"] == "tool"]


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "todo.txt").write_text("buy milk\n", encoding="utf-8")
    return folder


def test_the_policy_trusts_only_declared_read_only_or_always_allowed_tools():
    assert declared_read_only({"readOnlyHint": True})
    assert not declared_read_only({"readOnlyHint": True, "destructiveHint": True})
    assert not declared_read_only(None) and not declared_read_only({"destructiveHint": False})
    assert tool_status(True, "peek", {}, "p") == READ_ONLY
    assert tool_status(False, "write_note", {"write_note": "p"}, "p") == ALWAYS
    assert tool_status(False, "write_note", {"other": "p"}, "p") == ASKS


def test_an_unannotated_write_tool_does_not_run_until_the_person_allows_it_once(notes, make_agent):
    _model, agent, watcher, _seen = _agent(make_agent, notes, [WRITE, "Updated."])
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        question = watcher.next_pending()
        assert (notes / "todo.txt").read_text() == "buy milk\n" and not turn.done()
        assert question["server"] == "files" and question["tool"] == "write_note"
        assert question["arguments"] == {"name": "todo.txt", "text": "HACKED"}
        assert question["description"] == "Write a note, replacing what was there." and question["turn_id"]
        assert agent.approve_tool_call(question["call_id"], "once") == Done()
        result = turn.result(WAIT_S)
    assert result.answer == "Updated." and (notes / "todo.txt").read_text() == "HACKED"
    assert watcher.events[-1] == {
        "turn_id": question["turn_id"],
        "call_id": question["call_id"],
        "state": "once",
    }


def test_a_denied_call_is_an_observation_for_the_model_the_file_is_unchanged_and_the_turn_goes_on(
    notes, make_agent
):
    model, agent, watcher, _seen = _agent(make_agent, notes, [WRITE, "I could not change it."])
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        agent.approve_tool_call(watcher.next_pending()["call_id"], "deny")
        result = turn.result(WAIT_S)
    assert result.answer == "I could not change it." and result.error is None
    assert (notes / "todo.txt").read_text() == "buy milk\n"
    (observation,) = _tool_messages(model, 1)
    assert "The person refused to let you call write_note on the MCP server 'files'" in observation


def test_always_allow_is_remembered_and_the_tool_is_not_asked_about_again(notes, make_agent):
    write = [Call("mcp__files__write_note", {"name": "todo.txt", "text": "one"})]
    again = [Call("mcp__files__write_note", {"name": "todo.txt", "text": "two"})]
    _model, agent, watcher, _seen = _agent(make_agent, notes, [write, "first", again, "second"])
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        agent.approve_tool_call(watcher.next_pending()["call_id"], "always")
        turn.result(WAIT_S)
    assert agent.chat_with_assistant(ASK).answer == "second"
    assert len(watcher.pending) == 1 and (notes / "todo.txt").read_text() == "two"
    listed = {row.tool: row.approval for row in agent.list_mcp_tools()}
    assert listed == {"peek": READ_ONLY, "write_note": ALWAYS, "wipe": ASKS}


def test_a_call_nobody_answers_times_out_as_a_denial(notes, make_agent):
    model, agent, watcher, _seen = _agent(
        make_agent, notes, [WRITE, "Gave up."], chat_settings(approval_timeout_s=0.05)
    )
    result = agent.chat_with_assistant(ASK)
    assert result.answer == "Gave up." and (notes / "todo.txt").read_text() == "buy milk\n"
    assert "Nobody answered" in _tool_messages(model, 1)[0]
    question = watcher.pending[0]
    assert watcher.events[-1] == {
        "turn_id": question["turn_id"],
        "call_id": question["call_id"],
        "state": "timed_out",
    }
    with pytest.raises(NotFound):
        agent.approve_tool_call(question["call_id"], "once")


def test_read_only_annotated_tools_run_without_asking_and_contradictory_annotations_ask(notes, make_agent):
    calls = [Call("mcp__files__peek", {"name": "todo.txt"}), Call("mcp__files__wipe", {"name": "todo.txt"})]
    model, agent, watcher, _seen = _agent(
        make_agent, notes, [calls, "Read it."], chat_settings(approval_timeout_s=0.05)
    )
    agent.chat_with_assistant(ASK)
    peek, wipe = _tool_messages(model, 1)
    assert peek == "buy milk\n" and "Nobody answered" in wipe
    assert [e["tool"] for e in watcher.pending] == ["wipe"]
    assert (notes / "todo.txt").read_text() == "buy milk\n"


def test_answers_to_unknown_or_already_answered_calls_are_not_found_and_bad_decisions_invalid(
    notes, make_agent
):
    _model, agent, watcher, _seen = _agent(make_agent, notes, [WRITE, "ok"])
    with pytest.raises(NotFound):
        agent.approve_tool_call("no-such-call", "once")
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        call_id = watcher.next_pending()["call_id"]
        with pytest.raises(InvalidInput):
            agent.approve_tool_call(call_id, "yes please")
        agent.approve_tool_call(call_id, "deny")
        with pytest.raises(NotFound):
            agent.approve_tool_call(call_id, "once")
        turn.result(WAIT_S)


def test_the_trace_events_carry_each_calls_arguments_and_truncated_result(notes, make_agent):
    (notes / "big.txt").write_text("x" * 9000, encoding="utf-8")
    calls = [
        Call("mcp__files__peek", {"name": "big.txt"}, id="c1"),
        Call("list_directory", {"path": str(notes)}, id="c2"),
    ]
    _model, agent, _watcher, seen = _agent(
        make_agent, notes, [calls, "done"], chat_settings(mcp_output_chars=100_000)
    )
    agent.chat_with_assistant(ASK)
    steps = [p for t, p in seen if t == AGENT_STEP]
    results = {p["call_id"]: p for t, p in seen if t == AGENT_RESULT}
    assert [(s["call_id"], s["arguments"]) for s in steps] == [
        ("c1", {"name": "big.txt"}),
        ("c2", {"path": str(notes)}),
    ]
    assert results["c1"]["tool"] == "mcp__files__peek" and len(results["c1"]["result"]) < 4100
    assert (
        results["c1"]["result"].startswith("x" * 4000)
        and "more characters not shown" in results["c1"]["result"]
    )
    assert "todo.txt" in results["c2"]["result"]
    assert not [t for t, _p in seen if t == TOOL_APPROVAL]


def test_closing_the_agent_denies_a_call_still_waiting_instead_of_hanging_the_turn(notes, make_agent):
    _model, agent, watcher, _seen = _agent(make_agent, notes, [WRITE, "Closed."])
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        question = watcher.next_pending()
        agent.close()
        assert turn.result(WAIT_S).answer == "Closed."
    assert (notes / "todo.txt").read_text() == "buy milk\n"
    assert watcher.events[-1] == {
        "turn_id": question["turn_id"],
        "call_id": question["call_id"],
        "state": "deny",
    }


def test_stop_while_a_call_waits_for_the_person_withdraws_the_question_and_ends_the_turn(notes, make_agent):
    model, agent, watcher, _seen = _agent(make_agent, notes, [WRITE, "never asked for"])
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        question = watcher.next_pending()
        conversation_id = agent.conversations.find(None)[0].conversation_id
        agent.stop_chat(conversation_id)
        result = turn.result(WAIT_S)
    assert result.stopped and (notes / "todo.txt").read_text() == "buy milk\n"
    assert watcher.events[-1] == {
        "turn_id": question["turn_id"],
        "call_id": question["call_id"],
        "state": "deny",
    }
    assert len(model.requests) == 1  # no model call after the stop
    with pytest.raises(NotFound):
        agent.approve_tool_call(question["call_id"], "once")


def test_a_waiting_call_is_listed_with_its_conversation_until_it_is_answered(notes, make_agent):
    _model, agent, watcher, _seen = _agent(make_agent, notes, [WRITE, "Updated."])
    assert agent.list_pending_tool_calls() == []
    with turn_in_background(lambda: agent.chat_with_assistant(ASK)) as turn:
        question = watcher.next_pending()
        (waiting,) = agent.list_pending_tool_calls()  # what a page reloaded now shows again
        assert waiting.model_dump() == {**question, "conversation_id": waiting.conversation_id}
        agent.approve_tool_call(question["call_id"], "once")
        result = turn.result(WAIT_S)
    assert waiting.conversation_id == result.conversation_id and waiting.state == "pending"
    assert agent.list_pending_tool_calls() == []
