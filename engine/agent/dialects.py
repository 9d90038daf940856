"""How local models really answer: tool calls written into the content, and thinking kept apart.

Served without a tool-aware chat template (llama.cpp without `--jinja`, older Ollama builds, many GGUF
conversions, LM Studio presets), models write their calls as text instead of `tool_calls`:

- Qwen / Hermes: `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (one block per call);
- Mistral: `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]`, or `[TOOL_CALLS]name[ARGS]{…}` (tekken v13);
- Llama 3.1/3.2: `<|python_tag|>{"name": …, "parameters": {…}}` (several joined by `;`), or the bare
  JSON object as the whole reply;
- our own text protocol (`text_protocol.py`): `Action: name {…}` lines.

A call written as text is taken only when every call in it names a tool we offered and its arguments are
a JSON object: anything else stays text, because an answer may well quote JSON or these very markers.

Reasoning models put `<think>…</think>` in the content (Qwen3, DeepSeek-R1 distills) or, when the server
splits it out, in a `reasoning_content` / `reasoning` field (the adapter reads those). Thinking goes to
the trace, never to the answer. `ContentStream` makes the same split while the reply streams, holding
back what may turn out to be a call, so no marker ever flashes by as answer text.

JSON edge: a call written as text is JSON the model wrote, read as a dict until it becomes a `ToolCall`.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.agent.model import ToolCall, make_tool_call, parse_arguments
from engine.agent.thinking import THINK_CLOSE, THINK_OPEN, split_thinking

HERMES, MISTRAL, PYTHON_TAG, ACTION = "<tool_call>", "[TOOL_CALLS]", "<|python_tag|>", "Action:"
CALL_MARKERS = (HERMES, MISTRAL, PYTHON_TAG)
END_TOKENS = ("<|eom_id|>", "<|eot_id|>", "</s>", "[/TOOL_CALLS]", "<|im_end|>")
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
_ACTION_LINE = re.compile(r"^[ \t>*_`]*Action[*_`]*\s*:[ \t*_`]*([A-Za-z_][\w.-]*)[ \t`]*", re.MULTILINE)


@dataclass(frozen=True)
class Parsed:
    """A finished reply's content, read: the answer text, the thinking, and any calls written as text."""

    text: str
    thinking: str = ""
    calls: list[ToolCall] = field(default_factory=list)


def parse_reply(content: str, offered: set[str], *, actions: bool = False) -> Parsed:
    """Thinking split off, then the first dialect whose calls all read cleanly; otherwise plain text."""
    thinking, text = split_thinking(content)
    if offered:
        for dialect in (_hermes, _mistral, _python_tag, _bare_json) + ((_actions,) if actions else ()):
            found = dialect(text, offered)
            if found is not None:
                rest, calls = found
                return Parsed(rest, thinking, calls)
    return Parsed(text, thinking)


Found = tuple[str, list[ToolCall]] | None


def _hermes(text: str, offered: set[str]) -> Found:
    if HERMES not in text:
        return None
    blocks = re.findall(r"<tool_call>(.*?)(?:</tool_call>|$)", text, flags=re.DOTALL)
    values = [_one_value(_strip_end(b)) for b in blocks]
    calls = _calls([v for v in values if v is not None], offered) if None not in values else None
    if calls is None:
        return None
    rest = re.sub(r"<tool_call>.*?(?:</tool_call>|$)", "", text, flags=re.DOTALL)
    return rest.strip(), calls


def _mistral(text: str, offered: set[str]) -> Found:
    before, marker, after = text.partition(MISTRAL)
    if not marker:
        return None
    body = _strip_end(after.replace(MISTRAL, " "))
    if body[:1] in "[{":
        values = _json_values(body, ",;")
    else:
        values = _tekken_v13(body)
    calls = _calls(values, offered) if values else None
    return (before.strip(), calls) if calls is not None else None


def _tekken_v13(body: str) -> list[Any] | None:
    """`name[ARGS]{…}name[ARGS]{…}`: each name directly followed by its JSON arguments."""
    values, pos = [], 0
    while pos < len(body):
        head = re.match(r"\s*([A-Za-z_][\w.-]*)\s*\[ARGS\]\s*", body[pos:])
        if head is None:
            return None
        try:
            args, end = json.JSONDecoder().raw_decode(body, pos + head.end())
        except json.JSONDecodeError:
            return None
        values.append({"name": head.group(1), "arguments": args})
        pos = end
        while pos < len(body) and body[pos].isspace():
            pos += 1
    return values or None


def _python_tag(text: str, offered: set[str]) -> Found:
    before, marker, after = text.partition(PYTHON_TAG)
    if not marker:
        return None
    values = _json_values(_strip_end(after), ";")
    calls = _calls(values, offered) if values else None
    return (before.strip(), calls) if calls is not None else None


def _bare_json(text: str, offered: set[str]) -> Found:
    body = text.strip()
    fenced = _FENCE.match(body)
    body = fenced.group(1) if fenced else body
    if body[:1] not in "[{":
        return None
    values = _json_values(body, ";")
    calls = _calls(values, offered) if values else None
    return ("", calls) if calls is not None else None


def _actions(text: str, offered: set[str]) -> Found:
    """`Action: name {json}` lines (the text protocol; LangChain's `Action Input:` line is read too); the
    JSON may span lines. What the model writes after the JSON (an invented "Observation") is dropped."""
    matches = list(_ACTION_LINE.finditer(text))
    values: list[Any] = []
    for match in matches:
        rest = re.sub(r"^\s*Action[ _]Input\s*:", "", text[match.end() :]).lstrip(" \t")
        args: Any = {}
        if rest[:1] == "{":
            args = _object_at(rest)
            if args is None:
                return None
        values.append({"name": match.group(1), "arguments": args})
    calls = _calls(values, offered) if values else None
    return (text[: matches[0].start()].strip(), calls) if calls is not None else None


def _object_at(text: str) -> Any:
    """The JSON object `text` opens with; small models also write Python dicts (single quotes,
    True/None), read from that one line with `ast.literal_eval`, which evaluates nothing."""
    try:
        return json.JSONDecoder().raw_decode(text)[0]
    except json.JSONDecodeError:
        pass
    try:
        value = ast.literal_eval(text.split("\n", 1)[0].strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _strip_end(body: str) -> str:
    for token in END_TOKENS:
        body = body.replace(token, " ")
    return body.strip()


def _one_value(body: str) -> Any:
    values = _json_values(body, "")
    return values[0] if values and len(values) == 1 else None


def _json_values(body: str, separators: str) -> list[Any] | None:
    """Every JSON value in `body` (arrays flattened), separated by whitespace or `separators`; None when
    anything else is left over."""
    decoder, values, pos = json.JSONDecoder(), [], 0
    body = body.strip()
    while pos < len(body):
        try:
            value, pos = decoder.raw_decode(body, pos)
        except json.JSONDecodeError:
            return None
        values.extend(value if isinstance(value, list) else [value])
        while pos < len(body) and (body[pos].isspace() or body[pos] in separators):
            pos += 1
    return values


def _calls(values: list[Any] | None, offered: set[str]) -> list[ToolCall] | None:
    """ToolCalls when every value is a call to an offered tool with object arguments, else None."""
    calls: list[ToolCall] = []
    for i, value in enumerate(values or []):
        if not isinstance(value, dict):
            return None
        nested = value.get("function")
        function: dict[str, Any] = nested if isinstance(nested, dict) else value
        name = function.get("name")
        raw = function.get("arguments", function.get("parameters", {}))
        if not isinstance(name, str) or name not in offered or parse_arguments(raw)[2] is not None:
            return None
        call_id = value.get("id") if isinstance(value.get("id"), str) else None
        calls.append(make_tool_call(i, call_id or f"call_text_{i}", name, raw))
    return calls or None


Kind = Literal["text", "thinking"]


class ContentStream:
    """Streamed content → (kind, text) pieces: answer text and thinking, in order. From a call marker on
    (or when the reply opens with `{` or a code fence, the bare-JSON dialect) the rest is held for
    `parse_reply`, which decides at the end whether it was a call or text after all."""

    def __init__(self, *, actions: bool = False):
        self._markers = (THINK_OPEN, THINK_CLOSE, *CALL_MARKERS, *((ACTION,) if actions else ()))
        self._buf = ""
        self._thinking = False
        self._held = False
        self._shown = False

    def feed(self, text: str) -> list[tuple[Kind, str]]:
        self._buf += text
        out: list[tuple[Kind, str]] = []
        while self._buf and not self._held and self._step(out):
            pass
        return [(kind, piece) for kind, piece in out if piece]

    def finish(self) -> list[tuple[Kind, str]]:
        rest, self._buf = self._buf, ""
        if self._held or not rest:
            return []
        return [("thinking" if self._thinking else "text", rest)]

    def _step(self, out: list[tuple[Kind, str]]) -> bool:
        """Classify what can be classified now; True when there is more to look at."""
        if self._thinking:
            end = self._buf.find(THINK_CLOSE)
            if end < 0:
                self._emit(out, "thinking", len(self._buf) - _partial(self._buf, (THINK_CLOSE,)))
                return False
            out.append(("thinking", self._buf[:end]))
            self._buf, self._thinking = self._buf[end + len(THINK_CLOSE) :], False
            return True
        if not self._shown and self._leading_hold():
            return False
        at, marker = min(((self._buf.find(m), m) for m in self._markers if m in self._buf), default=(-1, ""))
        if at < 0:
            self._emit(out, "text", len(self._buf) - _partial(self._buf, self._markers))
            return False
        self._emit(out, "text", at)
        if marker in (THINK_OPEN, THINK_CLOSE):  # a lone close: the template opened it; what came was thought
            self._buf, self._thinking = self._buf[len(marker) :], marker == THINK_OPEN
            return True
        self._held = True
        return False

    def _leading_hold(self) -> bool:
        """Before any answer text: wait on whitespace or a partial fence; hold a reply opening with JSON."""
        head = self._buf.lstrip()
        if not head or "```".startswith(head):
            return True
        if head[0] == "{" or head.startswith("```"):
            self._held = True
            return True
        return False

    def _emit(self, out: list[tuple[Kind, str]], kind: Kind, upto: int) -> None:
        piece, self._buf = self._buf[:upto], self._buf[upto:]
        if kind == "text" and not self._shown:
            piece = piece.lstrip()
            self._shown = bool(piece)
        out.append((kind, piece))


def _partial(buf: str, markers: tuple[str, ...]) -> int:
    """Length of the longest tail of `buf` that could still grow into one of `markers`."""
    best = 0
    for marker in markers:
        for size in range(min(len(marker) - 1, len(buf)), best, -1):
            if marker.startswith(buf[-size:]):
                best = size
                break
    return best
