"""Test connection finds how a model calls tools (natively, via text, not at all), stores it per model,
and the next turns start in that mode; the text protocol keeps the bounds and the round limit."""

from __future__ import annotations

from engine.agent import Call, ScriptedModel, ToolsRejected
from tests.agent.helpers import FolderHost, chat_settings
from tests.agent.test_loop import docs

REFUSED = ToolsRejected("registry.ollama.ai/library/small does not support tools")


def probe(tmp_path, make_agent, steps):
    model = ScriptedModel(steps)
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    verdict = agent.test_chat_endpoint()
    model.assert_complete()
    return agent, verdict


def test_a_model_returning_tool_calls_calls_tools_natively(tmp_path, make_agent):
    agent, verdict = probe(tmp_path, make_agent, [[Call("ping")]])
    assert verdict.ok and verdict.tool_mode == "native" and "calls tools natively" in verdict.message
    assert agent.tool_modes.get(chat_settings().reasoning.base_url, "scripted") == "native"


def test_a_model_writing_its_call_into_the_reply_calls_tools_via_text_and_keeps_the_tools_parameter(
    tmp_path, make_agent
):
    _agent, verdict = probe(
        tmp_path, make_agent, ['<tool_call>\n{"name": "ping", "arguments": {}}\n</tool_call>']
    )
    assert verdict.tool_mode == "native" and "calls tools via text" in verdict.message


def test_a_model_refusing_tools_but_following_the_protocol_calls_tools_via_text(tmp_path, make_agent):
    agent, verdict = probe(tmp_path, make_agent, [REFUSED, "Action: ping {}"])
    assert verdict.ok and verdict.tools_supported and verdict.tool_mode == "text"
    assert "calls tools via text" in verdict.message
    assert agent.tool_modes.get(chat_settings().reasoning.base_url + "/", "scripted") == "text"


def test_a_model_that_neither_takes_tools_nor_follows_the_protocol_does_not_call_tools(tmp_path, make_agent):
    _agent, verdict = probe(tmp_path, make_agent, [REFUSED, "pong"])
    assert verdict.ok and not verdict.tools_supported and verdict.tool_mode == "none"
    assert "does not call tools at all" in verdict.message


def test_a_stored_text_mode_starts_the_turn_in_the_text_protocol_without_a_refused_request(
    tmp_path, make_agent
):
    root = docs(tmp_path)
    invoice = root / "tax" / "invoice-2024.txt"
    model = ScriptedModel([f'Action: read_file {{"path": "{invoice}"}}', "1200 EUR, per invoice-2024.txt."])
    agent, _bus, _seen = make_agent(FolderHost([root]), model)
    agent.tool_modes.set(chat_settings().reasoning.base_url, "scripted", "text")
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice total?"}])
    assert result.answer == "1200 EUR, per invoice-2024.txt." and result.trace[0]["tool"] == "read_file"
    assert all(r.tools is None for r in model.requests)
    assert "Action: <tool name>" in model.requests[0].system and "- read_file" in model.requests[0].system
    assert model.requests[1].messages[-1]["content"].startswith("Observation (read_file):\nInvoice 2024")


def test_a_stored_none_mode_answers_from_the_excerpts_without_tools(tmp_path, make_agent):
    model = ScriptedModel(["From the excerpts: 1200 EUR."])
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model)
    agent.tool_modes.set(chat_settings().reasoning.base_url, "scripted", "none")
    result = agent.chat_with_assistant([{"role": "user", "content": "invoice total?"}])
    assert result.answer == "From the excerpts: 1200 EUR." and model.requests[0].tools is None
    assert "Tools are not available" in str(model.requests[0].messages[-1]["content"])


def test_the_text_protocol_keeps_the_bounds_and_the_round_limit(tmp_path, make_agent):
    outside = tmp_path / "secret.txt"
    outside.write_text("the secret")
    steps = [REFUSED] + [f'Action: read_file {{"path": "{outside}"}}'] * 2 + ["Forced answer."]
    model = ScriptedModel(steps)
    agent, _bus, _seen = make_agent(FolderHost([docs(tmp_path)]), model, settings=chat_settings(max_rounds=2))
    result = agent.chat_with_assistant([{"role": "user", "content": "read the secret"}])
    model.assert_complete()
    assert result.answer == "Forced answer." and len(result.trace) == 2
    assert all(t["error"] and "the secret" not in t["result"] for t in result.trace)
    assert "do not call any more tools" in model.requests[-1].messages[-1]["content"]
