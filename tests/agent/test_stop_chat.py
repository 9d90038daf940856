"""stop_chat: after it, no model request and no tool call starts, the turn returns within a second, and
the partial answer is kept and marked stopped (in the result and in the stored conversation)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from engine.agent import Call, FunctionModel
from engine.agent.loop import turn_stopped
from engine.agent.model import ModelReply
from engine.errors import Conflict
from engine.events import CHAT_TURN
from engine.results import Done
from tests.agent.helpers import FolderHost

WAIT_S = 10
HOLD_S = 60  # a held model or tool waits longer than any join below: only the stop can end the turn


class StopOnThirdSearch(FolderHost):
    """A host whose third search presses Stop (on the turn's own thread, so the count is exact)."""

    def __init__(self, roots, stop):
        super().__init__(roots)
        self.stop = stop

    def search(self, query, scope, limit):
        hits = super().search(query, scope, limit)
        if sum(c.startswith("search:") for c in self.calls) == 3:
            self.stop()
        return hits


def test_after_stop_a_model_that_would_call_tools_forever_gets_no_further_request(tmp_path, make_agent):
    (tmp_path / "a.txt").write_text("alpha beta")
    conversation: dict[str, str] = {}
    host = StopOnThirdSearch([tmp_path], lambda: agent.stop_chat(conversation["id"]))
    forever = FunctionModel(
        lambda _m, _t: [Call("search_files", {"query": "alpha"}), Call("search_files", {"query": "beta"})]
    )
    agent, bus, _seen = make_agent(host, forever)
    bus.subscribe(lambda _t, p: conversation.setdefault("id", p["conversation_id"]), CHAT_TURN)
    result = agent.chat_with_assistant([{"role": "user", "content": "alpha"}])
    # pre-RAG is search 1; round 1's first call is search 2, its second call search 3 (Stop pressed there).
    assert len(forever.requests) == 1
    assert host.calls == ["search:alpha", "search:alpha", "search:beta"]
    assert result.stopped is True
    stored = agent.conversations.get(result.conversation_id).turns[0]
    assert stored.status == "stopped" and stored.stopped is True


class SlowModel:
    """Streams a few words, then waits (as a model still thinking would) until the test ends."""

    def __init__(self) -> None:
        self.requests = 0
        self.release = threading.Event()

    def chat(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
    ) -> Iterator[str | ModelReply]:
        self.requests += 1
        yield "The invoices "
        yield "are "
        self.release.wait(HOLD_S)
        yield "never finished."
        yield ModelReply(content="The invoices are never finished.")

    def text(self, system: str, user: str, **_kw: Any) -> str:
        raise AssertionError("not used")


def test_stop_from_another_thread_ends_the_held_turn_and_keeps_the_partial_answer(tmp_path, make_agent):
    model = SlowModel()
    agent, bus, _seen = make_agent(FolderHost([tmp_path]), model)
    started, streaming = threading.Event(), threading.Event()
    ids: dict[str, str] = {}

    def on_event(topic: str, payload: dict[str, Any]) -> None:
        if topic == CHAT_TURN:
            ids["conversation"] = payload["conversation_id"]
            started.set()
        elif topic == "answer-delta" and payload["delta"] == "are ":
            streaming.set()

    bus.subscribe(on_event)
    results: list[dict[str, Any]] = []
    turn = threading.Thread(
        target=lambda: results.append(agent.chat_with_assistant([{"role": "user", "content": "x"}]))
    )
    turn.start()
    try:
        assert started.wait(WAIT_S) and streaming.wait(WAIT_S)
        assert agent.get_conversation(ids["conversation"]).running is True
        assert agent.stop_chat(ids["conversation"]) == Done()
        turn.join(WAIT_S)
        assert not turn.is_alive(), "the turn did not stop while the model was still held"
    finally:
        model.release.set()
        turn.join(WAIT_S)
    assert results[0].stopped is True and results[0].answer == "The invoices are "
    assert model.requests == 1
    stored = agent.get_conversation(ids["conversation"])
    assert stored.running is False
    assert stored.turns[0].answer == "The invoices are " and stored.turns[0].status == "stopped"


def test_a_second_turn_in_a_running_conversation_is_refused_and_stop_without_a_turn_is_harmless(
    tmp_path, make_agent
):
    agent, _bus, _seen = make_agent(FolderHost([tmp_path]), FunctionModel(lambda _m, _t: "done"))
    result = agent.chat_with_assistant([{"role": "user", "content": "hi"}])
    assert agent.stop_chat(result.conversation_id) == Done()
    agent._claim(result.conversation_id)  # a turn is running in it
    try:
        with pytest.raises(Conflict):
            agent.chat_with_assistant(
                [{"role": "user", "content": "hi"}], conversation_id=result.conversation_id
            )
    finally:
        agent._release(result.conversation_id)
    assert len(agent.get_conversation(result.conversation_id).turns) == 1


class WaitingHost(FolderHost):
    """A search that waits as the MCP approval prompt does, polling `turn_stopped()` (bounded)."""

    def __init__(self, roots):
        super().__init__(roots)
        self.waiting = threading.Event()

    def search(self, query, scope, limit):
        if not self.calls:
            self.calls.append("pre-rag")
            return []
        self.waiting.set()
        tick = threading.Event()
        for _ in range(int(HOLD_S / 0.01)):
            if turn_stopped():
                return []
            tick.wait(0.01)
        raise AssertionError("the tool never saw the stop")


def test_a_tool_that_waits_sees_the_stop_through_turn_stopped(tmp_path, make_agent):
    model = FunctionModel(lambda _m, _t: [Call("search_files", {"query": "x"})])
    host = WaitingHost([tmp_path])
    agent, bus, _seen = make_agent(host, model)
    ids: dict[str, str] = {}
    bus.subscribe(lambda _t, p: ids.setdefault("id", p["conversation_id"]), CHAT_TURN)
    results: list[dict[str, Any]] = []
    turn = threading.Thread(
        target=lambda: results.append(agent.chat_with_assistant([{"role": "user", "content": "x"}]))
    )
    turn.start()
    assert host.waiting.wait(WAIT_S)
    agent.stop_chat(ids["id"])
    turn.join(WAIT_S)
    alive = turn.is_alive()
    turn.join(WAIT_S)
    assert not alive and results[0].stopped is True and len(model.requests) == 1
    assert not turn_stopped()  # outside a turn, nothing is stopped
