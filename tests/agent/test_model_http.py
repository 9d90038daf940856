from __future__ import annotations

import socket

import pytest

from bridge.api import to_jsonable
from engine.agent.model import ModelReply, OpenAIChatModel, ToolsRejected
from engine.agent.probe import probe_endpoint
from engine.config import ReasoningSettings
from engine.errors import EndpointError
from tests.fake_openai import FakeOpenAI, Raw, chunk, completion


def settings_for(url: str, **extra: object) -> ReasoningSettings:
    fields: dict[str, object] = {
        "enabled": True,
        "base_url": url,
        "model": "fake",
        "max_retries": 0,
        "timeout_s": 10,
        **extra,
    }
    return ReasoningSettings.model_validate(fields)


def final(model: OpenAIChatModel, tools: list | None = None) -> tuple[list[str], ModelReply]:
    items = list(model.chat([{"role": "user", "content": "hi"}], tools))
    reply = items[-1]
    assert isinstance(reply, ModelReply)
    return [i for i in items[:-1] if isinstance(i, str)], reply


TOOL = {
    "type": "function",
    "function": {
        "name": "search_files",
        "description": "s",
        "parameters": {"type": "object", "properties": {}},
    },
}


@pytest.mark.parametrize(
    "sent", ['{"query": "tax 2024"}', {"query": "tax 2024"}], ids=["as a JSON string", "as an object"]
)
def test_tool_call_arguments_are_read_however_the_endpoint_sends_them(sent):
    call = {"id": "c1", "type": "function", "function": {"name": "search_files", "arguments": sent}}
    with FakeOpenAI([Raw(body=completion(tool_calls=[call]))]) as fake:
        _deltas, reply = final(OpenAIChatModel(settings_for(fake.base_url), stream=False), [TOOL])
    assert reply.tool_calls[0].arguments == {"query": "tax 2024"} and reply.tool_calls[0].id == "c1"
    assert reply.tool_calls[0].error is None
    assert fake.requests[0]["tool_choice"] == "auto" and fake.requests[0]["tools"] == [TOOL]


def test_streaming_deltas_arrive_in_order_and_tool_call_pieces_are_joined():
    with FakeOpenAI() as fake:
        fake.script.append(
            Raw(
                stream=[
                    chunk({"role": "assistant", "content": "Hel"}),
                    chunk({"content": "lo"}),
                    chunk(
                        {
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "id": "c9",
                                    "type": "function",
                                    "function": {"name": "search_files", "arguments": '{"que'},
                                }
                            ]
                        }
                    ),
                    chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'ry": "x"}'}}]}),
                ]
            )
        )
        deltas, reply = final(OpenAIChatModel(settings_for(fake.base_url)), [TOOL])
    assert deltas == ["Hel", "lo"] and reply.content == "Hello"
    assert reply.tool_calls[0].id == "c9" and reply.tool_calls[0].arguments == {"query": "x"}
    assert fake.requests[0]["stream"] is True


def test_reasoning_effort_is_sent_only_when_set():
    with FakeOpenAI() as fake:
        fake.script += [Raw(body=completion("a")), Raw(body=completion("b"))]
        OpenAIChatModel(settings_for(fake.base_url)).text("sys", "user")
        OpenAIChatModel(settings_for(fake.base_url, reasoning_effort="low")).text(
            "sys", "user", json_mode=True
        )
    assert "reasoning_effort" not in fake.requests[0]
    assert fake.requests[1]["reasoning_effort"] == "low"
    assert fake.requests[1]["response_format"] == {"type": "json_object"}


def test_an_endpoint_that_rejects_tools_raises_tools_rejected():
    with FakeOpenAI() as fake:
        fake.script.append(Raw(400, {"error": {"message": "model fake does not support tools"}}))
        with pytest.raises(ToolsRejected, match="does not accept tool calls"):
            final(OpenAIChatModel(settings_for(fake.base_url)), [TOOL])


def test_tools_rejected_then_retried_without_tools_through_a_real_turn(tmp_path, make_agent):
    from tests.agent.helpers import FolderHost

    root = tmp_path / "Docs"
    root.mkdir()
    (root / "invoice.txt").write_text("Invoice total 1200 EUR")
    with FakeOpenAI() as fake:
        fake.script += [
            Raw(400, {"error": {"message": "tools are not supported by this model"}}),
            Raw(stream=[chunk({"content": "1200 EUR, per invoice.txt"})]),
        ]
        model = OpenAIChatModel(settings_for(fake.base_url))
        agent, _bus, _seen = make_agent(FolderHost([root]), model)
        result = agent.chat_with_assistant([{"role": "user", "content": "invoice total"}])
    assert result.answer == "1200 EUR, per invoice.txt"
    assert "tools" in fake.requests[0] and "tools" not in fake.requests[1]
    assert "invoice.txt" in fake.requests[1]["messages"][0]["content"]


def test_a_429_is_retried_with_back_off_and_then_succeeds():
    with FakeOpenAI() as fake:
        fake.script += [
            Raw(429, {"error": {"message": "slow down"}}, headers={"retry-after-ms": "10"}),
            Raw(body=completion("fine")),
        ]
        answer = OpenAIChatModel(settings_for(fake.base_url, max_retries=2)).text("s", "u")
    assert answer == "fine" and len(fake.requests) == 2


def test_a_429_that_persists_says_so_after_the_bounded_retries():
    with FakeOpenAI() as fake:
        fake.script += [Raw(429, {"error": {"message": "slow"}}, headers={"retry-after-ms": "1"})] * 2
        with pytest.raises(
            EndpointError, match=r"rate-limiting requests \(429\) and still was after 1 retries"
        ):
            OpenAIChatModel(settings_for(fake.base_url, max_retries=1)).text("s", "u")


@pytest.mark.parametrize(
    ("status", "message"),
    [(401, "refused the API key"), (404, "does not know model 'fake'"), (503, r"server error \(503\)")],
)
def test_status_errors_have_specific_messages(status, message):
    with FakeOpenAI() as fake:
        fake.script.append(Raw(status, {"error": {"message": "nope"}}))
        with pytest.raises(EndpointError, match=message):
            OpenAIChatModel(settings_for(fake.base_url)).text("s", "u")


def test_an_unreachable_endpoint_names_the_address_and_what_to_check():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    with pytest.raises(EndpointError) as info:
        OpenAIChatModel(settings_for(url)).text("s", "u")
    assert info.value.message.startswith(f"Cannot reach the reasoning endpoint at {url}")
    assert "Settings → Reasoning" in info.value.message


def test_probe_reports_reachability_model_presence_and_tool_support():
    ping = {"index": 0, "id": "c1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}
    with FakeOpenAI([Raw(stream=[chunk({"tool_calls": [ping]})])], models=["fake"]) as fake:
        ok = probe_endpoint(OpenAIChatModel(settings_for(fake.base_url)), settings_for(fake.base_url))
        fake.models = ["other"]
        missing = probe_endpoint(OpenAIChatModel(settings_for(fake.base_url)), settings_for(fake.base_url))
    assert to_jsonable(ok) == {
        "ok": True,
        "tools_supported": True,
        "tool_mode": "native",
        "message": ok.message,
    }
    assert "calls tools natively" in ok.message
    assert (
        missing.ok is False
        and "does not offer model 'fake'" in missing.message
        and "other" in missing.message
    )


def test_one_shot_text_leaves_the_thinking_out():
    with FakeOpenAI() as fake:
        fake.script += [Raw(body=completion("<think>\nWhich folder?\n</think>\n\n[tax] An invoice."))]
        answer = OpenAIChatModel(settings_for(fake.base_url)).text("sys", "user")
    assert answer == "[tax] An invoice."


def test_a_server_error_that_says_tools_need_jinja_is_a_tools_refusal_not_a_server_failure():
    with FakeOpenAI() as fake:
        fake.script.append(Raw(500, {"error": {"code": 500, "message": "tools param requires --jinja flag"}}))
        with pytest.raises(ToolsRejected):
            final(OpenAIChatModel(settings_for(fake.base_url)), [TOOL])
