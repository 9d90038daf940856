"""Every wire shape of tests/agent/wire_shapes.py, replayed over HTTP through the real adapter, completes a
search → read → answer turn that cites the right file; no call marker or thinking reaches the answer,
the streamed answer, the conversation store or memory; thinking reaches the trace's live events."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agent.dialects import ContentStream, Parsed, parse_reply
from engine.agent.model import OpenAIChatModel
from engine.events import AGENT_THINKING, ANSWER_DELTA
from tests.agent.helpers import FolderHost
from tests.agent.test_model_http import settings_for
from tests.agent.wire_shapes import DIALECTS, MARKERS, Dialect, hermes
from tests.fake_openai import FakeOpenAI

ANSWER = "The total is 1200 EUR, per invoice-2024.txt."


def folder(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "Docs"
    root.mkdir()
    invoice = root / "invoice-2024.txt"
    invoice.write_text("ACME invoice 2024. Total due: 1200 EUR.")
    (root / "garden.txt").write_text("Plant tomatoes in May.")
    return root, invoice


def script(dialect: Dialect, invoice: Path, stream: bool) -> list:
    search = ("search_files", {"query": "ACME invoice total"})
    first = [search, ("search_files", {"query": "invoice 2024"})] if dialect.several else [search]
    replies = [dialect.refusal] if dialect.refusal else []
    replies += [
        dialect.calls(first, stream),
        dialect.calls([("read_file", {"path": str(invoice)})], stream),
        dialect.answer(ANSWER, stream),
    ]
    return replies


def clean(text: str) -> bool:
    return not any(marker in text for marker in MARKERS)


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("dialect", DIALECTS, ids=[d.name for d in DIALECTS])
def test_every_dialect_searches_reads_and_cites_the_file_with_no_marker_in_the_answer(
    tmp_path, make_agent, dialect, stream
):
    root, invoice = folder(tmp_path)
    with FakeOpenAI(script(dialect, invoice, stream)) as fake:
        model = OpenAIChatModel(settings_for(fake.base_url), stream=stream)
        agent, _bus, seen = make_agent(FolderHost([root]), model)
        result = agent.chat_with_assistant([{"role": "user", "content": "What is the ACME invoice total?"}])
        assert fake.remaining() == 0
    assert result.answer == ANSWER and result.error is None
    assert [t["tool"] for t in result.trace][-1] == "read_file" and result.trace[0]["tool"] == "search_files"
    assert any(s["path"] == str(invoice) and s["used"] for s in result.sources)
    deltas = "".join(p["delta"] for topic, p in seen if topic == ANSWER_DELTA)
    stored = agent.get_conversation(result.conversation_id)
    assert clean(deltas) and clean(stored.model_dump_json()) and clean(result.model_dump_json())
    assert ANSWER in deltas if stream else True
    assert agent.agent_memory_list() == []
    thinking = "".join(p["delta"] for topic, p in seen if topic == AGENT_THINKING)
    assert bool(thinking) == bool(dialect.thinking)
    assert not thinking or (
        thinking.strip() not in result.answer and thinking.strip() not in stored.model_dump_json()
    )


def test_a_call_to_a_tool_we_did_not_offer_stays_text():
    parsed = parse_reply(hermes([("delete_everything", {"path": "/"})]), {"search_files"})
    assert parsed.calls == [] and "<tool_call>" in parsed.text


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "search_files", "arguments": {"query": </tool_call>',
        '[TOOL_CALLS][{"name": "search_files", "arguments": "not json"}]',
        '<|python_tag|>{"name": "search_files", "parameters": {"query": "x"}} and then some prose',
        'Here is JSON you asked for: {"name": "search_files", "parameters": {}}',
        '{"name": "Ada", "age": 36}',
    ],
    ids=[
        "unclosed JSON",
        "arguments not an object",
        "prose after the call",
        "JSON inside prose",
        "other JSON",
    ],
)
def test_malformed_or_quoted_calls_stay_text(text):
    parsed = parse_reply(text, {"search_files"})
    assert parsed.calls == [] and parsed.text == text.strip()


def test_thinking_split_across_stream_pieces_never_leaks_a_marker_into_the_answer():
    reply = "<think>\nplan: search</think>\n\nThe answer.<tool_call>{}</tool_call>"
    for size in (1, 2, 3, 5, 8):
        stream, pieces = ContentStream(), []
        for i in range(0, len(reply), size):
            pieces += stream.feed(reply[i : i + size])
        pieces += stream.finish()
        text = "".join(p for kind, p in pieces if kind == "text")
        thought = "".join(p for kind, p in pieces if kind == "thinking")
        assert text == "The answer." and thought.strip() == "plan: search", size


def test_a_reply_that_opens_with_json_is_held_until_it_ends_then_shown_if_it_was_no_call():
    stream = ContentStream()
    assert stream.feed('{"name": "Ada"') == [] and stream.finish() == []
    assert parse_reply('{"name": "Ada"}', {"search_files"}).text == '{"name": "Ada"}'


def test_with_tools_refused_the_text_protocol_finds_and_cites_the_file_in_at_least_90_percent_of_20_turns(
    tmp_path, make_agent
):
    from tests.agent.text_protocol_set import QUESTIONS, FakeSmallModel, write_files

    root = tmp_path / "Home"
    write_files(root)
    outcomes = {}
    for i, (question, target, style) in enumerate(QUESTIONS):
        model = FakeSmallModel(style, question)
        agent, _bus, _seen = make_agent(FolderHost([root]), model)
        result = agent.chat_with_assistant([{"role": "user", "content": question}])
        used = {Path(s["path"]).name for s in result.sources if s["used"]}
        outcomes[(i, style)] = target in used and target in result.answer and clean(result.answer)
        assert model.requests[0][1] and all(tools is None for _m, tools in model.requests[1:])
    rate = sum(outcomes.values()) / len(QUESTIONS)
    failed = sorted({style for (_i, style), ok in outcomes.items() if not ok})
    assert rate >= 0.9, (rate, failed)
    assert failed == ["python call"], failed  # the one slip the protocol does not read


def test_a_lone_closing_think_tag_never_streams_and_what_came_before_it_is_thinking_at_the_end():
    stream = ContentStream()
    pieces = stream.feed("the template opened it</th") + stream.feed("ink>\n\nAnswer.") + stream.finish()
    assert "</think>" not in "".join(p for _k, p in pieces)
    assert parse_reply("the template opened it</think>\n\nAnswer.", set()) == Parsed(
        "Answer.", "the template opened it"
    )
