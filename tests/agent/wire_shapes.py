"""Wire shapes of the local servers people run, for the fake endpoint (tests/fake_openai.py) to replay.

Each `Dialect` turns "call these tools" / "answer this" into the exact HTTP answer one server sends for
one model family, non-streamed (a chat.completion body) and streamed (chat.completion.chunk payloads,
cut where those servers cut them). Ids, field names and the text markers are the servers' own; the
tool names and arguments are ours. Sources, read for these shapes (December 2026):

- Ollama, `openai/openai.go` (ollama/ollama): `ToChunk`/`ToChatCompletion` send each tool call whole in
  one chunk with `id` (`call_` + 8 random characters), `index`, `arguments` as a JSON string, and the
  thinking in `reasoning` (from `Message.Thinking`); `finish_reason: "tool_calls"`. A model without a
  tool template is refused with HTTP 400 `"registry.ollama.ai/library/<model> does not support tools"`
  (`server/routes.go`; the message is matched in many clients' tests).
- llama.cpp server, `tools/server/README.md` and `tools/server/tests/unit/test_tool_call.py`
  (ggml-org/llama.cpp): with `--jinja`, streamed calls open with `{"index":0,"id":…,"type":"function",
  "function":{"name":…,"arguments":""}}` and the arguments follow a few characters per chunk;
  `--reasoning-format deepseek` puts thinking in `reasoning_content`, `none` leaves `<think>` in the
  content. Without `--jinja` a request with tools fails with HTTP 500 `"tools param requires --jinja
  flag"` (`oaicompat_chat_params_parse`), and the model, prompted by hand, writes its native dialect.
- vLLM, `tests/tool_use/test_hermes_tool_parser.py`, `tests/tool_use/test_mistral_tool_parser.py`,
  `vllm/entrypoints/openai/tool_parsers/llama_tool_parser.py` and `docs/features/reasoning_outputs.md`
  (vllm-project/vllm): the text each parser reads — Hermes/Qwen `<tool_call>\\n{"name": …,
  "arguments": …}\\n</tool_call>`, Mistral `[TOOL_CALLS][{"name": …, "arguments": …}]` (pre-v11) and
  `[TOOL_CALLS]name[ARGS]{…}` (v13 tekken), Llama 3.x `<|python_tag|>` or a bare JSON object with
  `"parameters"` — which is what reaches the client when the server runs without that parser;
  reasoning in `reasoning_content` (newer builds also `reasoning`). Without `--enable-auto-tool-choice`
  a tools request fails with HTTP 400 `"auto" tool choice requires --enable-auto-tool-choice and
  --tool-call-parser to be set`.
- LM Studio, lmstudio.ai/docs/advanced/tool-use: OpenAI-shaped `tool_calls` whose ids are digit
  strings, arguments streamed in pieces after a first chunk carrying the name; models without native
  tool support are prompted by LM Studio's default template and may answer in their own text dialect.
- Some OpenAI-compatible proxies in front of Ollama's native API pass `arguments` as an object, and some
  llama.cpp builds and LM Studio versions omit the call `id` (clients synthesise one; Dart `llm_ollama`
  changelog 0.1.6 records the same fix).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.fake_openai import Raw, chunk, completion

Calls = list[tuple[str, dict[str, Any]]]


def _pieces(text: str, size: int = 7) -> list[str]:
    """Cut text the way a tokenizer streams it: a few characters at a time, markers split too."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _content_raw(text: str, stream: bool, reasoning: str = "", field: str = "reasoning_content") -> Raw:
    if not stream:
        body = completion(text or None)
        if reasoning:
            body["choices"][0]["message"][field] = reasoning
        return Raw(body=body)
    chunks = [chunk({"role": "assistant", "content": None})]
    chunks += [chunk({field: piece}) for piece in _pieces(reasoning)] if reasoning else []
    chunks += [chunk({"content": piece}) for piece in _pieces(text)]
    chunks.append(chunk({}, "stop"))
    return Raw(stream=chunks)


def _call_dict(i: int, name: str, args: dict[str, Any], style: str) -> dict[str, Any]:
    ids = {"ollama": f"call_{i:08d}", "lmstudio": f"{365174485 + i}", "llama.cpp": f"Xq{i}bT9kR2mWfPz"}
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
    if style == "object-args":
        call["function"]["arguments"] = args
    if style != "no-ids":
        call["id"] = ids.get(style, f"chatcmpl-tool-{i}")
    return call


def _structured(style: str, reasoning_field: str = "") -> Callable[[Calls, bool], Raw]:
    """OpenAI-shaped tool calls as `style`'s server sends them (ollama: whole; others: args in pieces)."""

    def build(calls: Calls, stream: bool) -> Raw:
        dicts = [_call_dict(i, n, a, style) for i, (n, a) in enumerate(calls)]
        if not stream:
            body = completion(None, dicts)
            if reasoning_field:
                body["choices"][0]["message"][reasoning_field] = "The person wants the invoice; search first."
            return Raw(body=body)
        chunks = [chunk({"role": "assistant", "content": None})]
        if reasoning_field:
            chunks += [
                chunk({reasoning_field: p}) for p in _pieces("The person wants the invoice; search first.")
            ]
        for i, call in enumerate(dicts):
            if style in ("ollama", "object-args"):
                chunks.append(
                    chunk({"role": "assistant", "content": "", "tool_calls": [{"index": i, **call}]})
                )
                continue
            head = {**call, "index": i, "function": {"name": call["function"]["name"], "arguments": ""}}
            chunks.append(chunk({"tool_calls": [head]}))
            chunks += [
                chunk({"tool_calls": [{"index": i, "function": {"arguments": p}}]})
                for p in _pieces(call["function"]["arguments"], 5)
            ]
        chunks.append(chunk({}, "tool_calls"))
        return Raw(stream=chunks)

    return build


def _in_content(render: Callable[[Calls], str], think: bool = False) -> Callable[[Calls, bool], Raw]:
    def build(calls: Calls, stream: bool) -> Raw:
        prefix = "<think>\nI should search the files before answering.\n</think>\n\n" if think else ""
        return _content_raw(prefix + render(calls), stream)

    return build


def hermes(calls: Calls) -> str:
    return "".join(
        f'<tool_call>\n{{"name": "{n}", "arguments": {json.dumps(a)}}}\n</tool_call>\n' for n, a in calls
    )


def mistral(calls: Calls) -> str:
    return "[TOOL_CALLS]" + json.dumps([{"name": n, "arguments": a} for n, a in calls])


def mistral_v13(calls: Calls) -> str:
    return "".join(f"[TOOL_CALLS]{n}[ARGS]{json.dumps(a)}" for n, a in calls)


def python_tag(calls: Calls) -> str:
    return "<|python_tag|>" + "; ".join(json.dumps({"name": n, "parameters": a}) for n, a in calls)


def bare_json(calls: Calls) -> str:
    return "; ".join(json.dumps({"name": n, "parameters": a}) for n, a in calls)


def action_lines(calls: Calls) -> str:
    return "Thought: I need the file first.\n" + "".join(f"Action: {n} {json.dumps(a)}\n" for n, a in calls)


REFUSALS = {
    "ollama": Raw(400, {"error": {"message": "registry.ollama.ai/library/gemma3:4b does not support tools"}}),
    "llama.cpp": Raw(
        500, {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}
    ),
    "vllm": Raw(
        400,
        {
            "object": "error",
            "message": '"auto" tool choice requires --enable-auto-tool-choice and '
            "--tool-call-parser to be set",
            "type": "BadRequestError",
            "code": 400,
        },
    ),
}


@dataclass(frozen=True)
class Dialect:
    """One server × model family: how it sends calls, how it answers, and what it refuses first."""

    name: str
    calls: Callable[[Calls, bool], Raw]
    thinking: str = ""  # "content" (<think> in the answer), or the field name carrying it
    refusal: Raw | None = None
    several: bool = False  # the first reply carries two calls

    def answer(self, text: str, stream: bool) -> Raw:
        thought = "The invoice says 1200 EUR; cite it."
        if self.thinking == "content":
            return _content_raw(f"<think>\n{thought}\n</think>\n\n{text}", stream)
        if self.thinking:
            return _content_raw(text, stream, thought, self.thinking)
        return _content_raw(text, stream)


DIALECTS = [
    Dialect("vllm structured, args in pieces", _structured("vllm")),
    Dialect("ollama structured, whole call per chunk", _structured("ollama")),
    Dialect("lmstudio structured, digit ids", _structured("lmstudio")),
    Dialect("llama.cpp structured, several calls", _structured("llama.cpp"), several=True),
    Dialect("structured, missing ids", _structured("no-ids")),
    Dialect("structured, arguments as an object", _structured("object-args")),
    Dialect("qwen/hermes <tool_call> in content", _in_content(hermes)),
    Dialect("hermes, several calls in content", _in_content(hermes), several=True),
    Dialect("mistral [TOOL_CALLS] array", _in_content(mistral), several=True),
    Dialect("mistral v13 [TOOL_CALLS]name[ARGS]", _in_content(mistral_v13)),
    Dialect("llama 3.1 <|python_tag|>", _in_content(python_tag)),
    Dialect("llama 3.1 bare JSON", _in_content(bare_json)),
    Dialect("qwen3 <think> in content + <tool_call>", _in_content(hermes, think=True), thinking="content"),
    Dialect(
        "llama.cpp reasoning_content", _structured("llama.cpp", "reasoning_content"), "reasoning_content"
    ),
    Dialect("ollama reasoning field", _structured("ollama", "reasoning"), thinking="reasoning"),
    Dialect("ollama refuses tools → text protocol", _in_content(action_lines), refusal=REFUSALS["ollama"]),
    Dialect("llama.cpp no --jinja → text protocol", _in_content(action_lines), refusal=REFUSALS["llama.cpp"]),
    Dialect("vllm no auto tool choice → text protocol", _in_content(action_lines), refusal=REFUSALS["vllm"]),
    Dialect(
        "llama.cpp no --jinja, model writes hermes",
        _in_content(hermes, think=True),
        "content",
        REFUSALS["llama.cpp"],
    ),
]
MARKERS = ("<tool_call>", "</tool_call>", "[TOOL_CALLS]", "<|python_tag|>", "<think>", "</think>", "Action:")
