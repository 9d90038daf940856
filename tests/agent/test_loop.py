from __future__ import annotations

from pathlib import Path

from engine.agent import Call, FunctionModel, ScriptedModel
from engine.agent.loop import FORCE_ANSWER
from engine.config import Settings
from engine.errors import EndpointError
from engine.events import AGENT_STEP, ANSWER_DELTA
from tests.agent.helpers import FolderHost, chat_settings


def docs(tmp_path: Path) -> Path:
    root = tmp_path / "Docs"
    (root / "tax").mkdir(parents=True)
    (root / "tax" / "invoice-2024.txt").write_text("Invoice 2024 from ACME to Jane Doe, total 1200 EUR.")
    (root / "notes.txt").write_text("Meeting notes about the garden and the invoice schedule.")
    return root


def test_turn_stops_early_when_the_model_answers_with_plain_content(tmp_path, make_agent):
    model = ScriptedModel(["The invoice total is 1200 EUR (invoice-2024.txt)."])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "What is the invoice total?"}])
    model.assert_complete()
    assert result.answer == "The invoice total is 1200 EUR (invoice-2024.txt)."
    assert result.plan is None and result.steps == []
    assert len(model.requests) == 1 and "search_files" in model.requests[0].tool_names


def test_turn_stops_at_once_when_a_plan_is_proposed(tmp_path, make_agent):
    root = docs(tmp_path)
    host = FolderHost([root])
    plan_call = Call(
        "propose_actions",
        {
            "summary": "File the invoice",
            "operations": [
                {"kind": "mkdir", "new_path": str(root / "Invoices"), "reason": "a home for invoices"}
            ],
        },
    )
    later_call = Call("read_file", {"path": str(root / "notes.txt")})
    model = ScriptedModel([[plan_call, later_call]])
    agent, _bus, _seen = make_agent(host, model)
    result = agent.chat_with_assistant([{"role": "user", "content": "Tidy my invoices"}])
    model.assert_complete()
    assert result.plan["summary"] == "File the invoice"
    assert result.steps == ["🛠️ Preparing an action plan"]
    assert not any(c.startswith("read:") for c in host.calls)
    assert "Nothing has changed yet" in result.answer
    assert not (root / "Invoices").exists()


def test_turn_forces_a_final_answer_without_tools_after_five_tool_rounds(tmp_path, make_agent):
    search = [Call("search_files", {"query": "invoice"})]
    model = ScriptedModel([search] * 5 + ["Here is what I found."])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice?"}])
    model.assert_complete()
    assert result.answer == "Here is what I found."
    assert len(result.steps) == 5
    assert model.requests[-1].tools is None
    assert model.requests[-1].messages[-1] == {"role": "user", "content": FORCE_ANSWER}
    assert all(r.tools for r in model.requests[:5])


def test_agent_step_is_published_before_the_tool_runs(tmp_path, make_agent):
    root = docs(tmp_path)
    host = FolderHost([root])
    order: list[str] = []
    original = host.extracted_text
    host.extracted_text = lambda path: order.append("tool ran") or original(path)  # type: ignore[method-assign]
    model = ScriptedModel([[Call("read_file", {"path": str(root / "notes.txt")})], "Done."])
    agent, bus, _seen = make_agent(host, model)
    bus.subscribe(lambda _t, payload: order.append(payload["step"]), AGENT_STEP)
    agent.chat_with_assistant([{"role": "user", "content": "read my notes"}])
    assert order == ["📄 Reading: notes.txt", "tool ran"]


def test_sources_join_pre_rag_and_search_hits_deduplicated_by_path(tmp_path, make_agent):
    root = docs(tmp_path)
    (root / "garden.txt").write_text("Roses and tulips in the garden.")
    model = ScriptedModel([[Call("search_files", {"query": "garden invoice"})], "ok"])
    agent, _bus, _seen = make_agent(FolderHost([root]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice"}])
    paths = [s["path"] for s in result.sources]
    assert len(paths) == len(set(paths))
    assert set(paths) == {
        str(root / "tax" / "invoice-2024.txt"),
        str(root / "notes.txt"),
        str(root / "garden.txt"),
    }
    assert set(result.sources[0]) == {"path", "name", "score", "snippet", "used"}


def test_tool_results_go_back_to_the_model_as_tool_messages(tmp_path, make_agent):
    root = docs(tmp_path)
    model = ScriptedModel([[Call("list_directory", {"path": str(root)}, id="c1")], "Two entries."])
    agent, _bus, _seen = make_agent(FolderHost([root]), model)
    agent.chat_with_assistant([{"role": "user", "content": "what is in Docs?"}])
    second = model.requests[1].messages
    assert second[-2]["tool_calls"][0]["id"] == "c1"
    assert second[-1]["role"] == "tool" and second[-1]["tool_call_id"] == "c1"
    assert (
        f"[D] {root / 'tax'}" in second[-1]["content"]
        and f"[F] {root / 'notes.txt'}" in second[-1]["content"]
    )


def test_malformed_tool_arguments_become_an_error_observation_not_a_crash(tmp_path, make_agent):
    model = ScriptedModel([[Call("search_files", '{"query": "inv')], "Sorry."])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice"}])
    assert result.answer == "Sorry."
    observation = model.requests[1].messages[-1]["content"]
    assert observation.startswith("Error calling search_files: the arguments are not valid JSON")


def test_out_of_bounds_read_returns_a_refusal_and_no_data(tmp_path, make_agent):
    root = docs(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("the password is hunter2")
    host = FolderHost([root])
    model = ScriptedModel([[Call("read_file", {"path": str(root / ".." / "secret.txt")})], "I cannot."])
    agent, _bus, _seen = make_agent(host, model)
    agent.chat_with_assistant([{"role": "user", "content": "read the secret"}])
    observation = model.requests[1].messages[-1]["content"]
    assert observation.startswith("Refused:") and "hunter2" not in observation
    assert not any(c.startswith("read:") for c in host.calls)


def test_read_file_pages_long_text_with_an_offset(tmp_path, make_agent):
    root = docs(tmp_path)
    long_file = root / "long.txt"
    long_file.write_text("a" * 4000 + "TAIL")
    model = ScriptedModel(
        [
            [Call("read_file", {"path": str(long_file)})],
            [Call("read_file", {"path": str(long_file), "offset": 4000})],
            "done",
        ]
    )
    agent, _bus, _seen = make_agent(FolderHost([root]), model)
    agent.chat_with_assistant([{"role": "user", "content": "read long"}])
    first = model.requests[1].messages[-1]["content"]
    assert first.startswith("a" * 4000) and "offset=4000" in first and "TAIL" not in first
    assert model.requests[2].messages[-1]["content"] == "TAIL"


def test_remember_saves_a_note_that_reaches_the_next_turns_prompt(tmp_path, make_agent):
    model = ScriptedModel([[Call("remember", {"note": "Jane is my accountant"})], "Noted.", "Hi."])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "Remember: Jane is my accountant"}])
    assert result.steps == ["🧠 Remembering"]
    agent.chat_with_assistant([{"role": "user", "content": "hello"}])
    assert "- Jane is my accountant" in model.requests[2].system
    assert [n.note for n in agent.agent_memory_list()] == ["Jane is my accountant"]


def test_answer_streams_as_answer_delta_events(tmp_path, make_agent):
    model = ScriptedModel(["Three little words."])
    agent, _bus, seen = make_agent(FolderHost([docs(tmp_path)]), model)
    agent.chat_with_assistant([{"role": "user", "content": "hi"}])
    deltas = [p["delta"] for topic, p in seen if topic == ANSWER_DELTA]
    assert len(deltas) == 3 and "".join(deltas) == "Three little words."


def test_tools_rejected_by_the_endpoint_are_dropped_and_the_model_answers_from_excerpts(tmp_path, make_agent):
    from engine.agent import ToolsRejected

    model = ScriptedModel([ToolsRejected("no tools here"), "From the excerpts: 1200 EUR."])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice total"}])
    assert result.answer == "From the excerpts: 1200 EUR."
    assert model.requests[1].tools is None and "invoice-2024.txt" in model.requests[1].system


def test_an_endpoint_failure_gives_its_message_and_the_sources_found(tmp_path, make_agent):
    model = ScriptedModel([EndpointError("Cannot reach the reasoning endpoint at http://x/v1.")])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice"}])
    assert result.answer.startswith("Cannot reach the reasoning endpoint")
    assert "invoice-2024.txt" in result.answer and result.sources
    assert result.error["code"] == "endpoint"


def test_with_reasoning_disabled_the_turn_returns_sources_and_says_where_to_set_an_endpoint(
    tmp_path, make_agent
):
    model = FunctionModel(lambda m, t: "never")
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model, settings=Settings())
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice"}])
    assert "Settings → Reasoning" in result.answer and result.sources
    assert model.requests == []


def test_scope_restricts_pre_rag_and_search(tmp_path, make_agent):
    root = docs(tmp_path)
    model = ScriptedModel([[Call("search_files", {"query": "invoice garden"})], "ok"])
    agent, _bus, _seen = make_agent(FolderHost([root]), model, settings=chat_settings())
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice"}], scope=str(root / "tax"))
    assert [s["name"] for s in result.sources] == ["invoice-2024.txt"]
