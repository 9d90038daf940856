"""Wrong argument types never reach the engine: every command answers `invalid_input` naming the argument,
through the Api (pywebview's door) and through `sensetree serve` (the HTTP door) alike. A path whose
text can name no file (a NUL byte, a lone surrogate) is refused there too, as `out_of_bounds`."""

from __future__ import annotations

import http.client
import json
import types
import typing
from typing import Any

from bridge import COMMANDS, Api
from bridge.arguments import PATH_ARGUMENTS, QUERY_CHARS
from bridge.server import TOKEN_HEADER, start_server
from engine.events import EventBus

# One good value and every kind of wrong value, per kind of parameter.
GOOD: dict[str, Any] = {"str": "x", "int": 3, "bool": False, "list": [], "dict": {}}
WRONG: dict[str, list[Any]] = {
    "str": [123, 1.5, True, [], {}, ["a"], "a\x00b", "half \ud83d of an emoji"],
    "int": ["5", "1 OR 1=1", 1.5, True, [], {}, -1, 10**30],
    "bool": ["false", "true", 0, 1, [], {}, "no"],
    "list": ["x", 5, {}, True, [None]],
    "dict": [[], "x", 5, True, [{"a": 1}]],
}
# The examples the adversarial run reported as `internal`.
REPORTED = [
    ("list_directory", {"path": 123}, "path"),
    ("semantic_search", {"query": 5}, "query"),
    ("agent_memory_delete", {"id": "1 OR 1=1"}, "id"),
    ("set_indexing_paused", {"paused": "false"}, "paused"),
    ("read_semantics", {"path": "/x", "recursive": "yes"}, "recursive"),
    ("indexing_queue", {"limit": "10"}, "limit"),
    ("chat_with_assistant", {"messages": "hello"}, "messages"),
    ("set_config", {"patch": "reasoning.enabled=true"}, "patch"),
]


def _kind(annotation: Any) -> str:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
        return _kind(annotation)
    if typing.get_origin(annotation) is typing.Literal:  # e.g. decision: Literal["once", "always", "deny"]
        return _kind(type(typing.get_args(annotation)[0]))
    origin = typing.get_origin(annotation) or annotation
    return {str: "str", int: "int", bool: "bool", list: "list", dict: "dict"}[origin]


def _parameters(command: str) -> list[tuple[str, str, bool]]:
    """(name, kind, required) of each argument of a command, read from the bridge's annotations."""
    method = getattr(Api, command).__wrapped__
    hints = typing.get_type_hints(method, include_extras=True)
    signature = typing.cast(Any, getattr(Api, command)).__signature__
    return [
        (name, _kind(hints[name]), p.default is p.empty) for name, p in list(signature.parameters.items())[1:]
    ]


def _cases() -> list[tuple[str, dict[str, Any], str]]:
    cases = []
    for command in COMMANDS:
        params = _parameters(command)
        base = {name: GOOD[kind] for name, kind, required in params if required}
        for name, kind, required in params:
            for wrong in WRONG[kind] + ([None] if required else []):
                cases.append((command, {**base, name: wrong}, name))
        cases.append((command, {**base, "unexpected": 1}, "unexpected"))
    return cases + REPORTED


class _EngineThatMustNotBeCalled:
    def __init__(self) -> None:
        self.events = EventBus()
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        def record(**kwargs: Any) -> Any:
            self.calls.append(name)
            return None

        return record


CASES = _cases()


def test_the_table_covers_every_argument_of_every_command():
    covered = {(command, arg) for command, _kwargs, arg in CASES}
    for command in COMMANDS:
        for name, _kind, _required in _parameters(command):
            assert (command, name) in covered
        assert (command, "unexpected") in covered
    assert len(CASES) > 200


def _names_no_file(kwargs: dict[str, Any], argument: str) -> bool:
    """A path argument whose text can name no file (NUL, a lone surrogate): out of bounds, not a type."""
    value = kwargs.get(argument)
    return (
        argument in PATH_ARGUMENTS
        and isinstance(value, str)
        and value in ("a\x00b", "half \ud83d of an emoji")
    )


def _assert_refused(
    envelope: dict[str, Any], command: str, argument: str, kwargs: dict[str, Any] | None = None
) -> None:
    assert envelope["ok"] is False, (command, argument)
    if kwargs is not None and _names_no_file(kwargs, argument):
        assert envelope["error"]["code"] == "out_of_bounds", (command, argument, envelope)
        assert "names no file" in envelope["error"]["message"], envelope
        return
    assert envelope["error"]["code"] == "invalid_input", (command, argument, envelope)
    message = envelope["error"]["message"]
    assert command in message and f"`{argument}" in message, message
    assert len(message) < 400


def test_every_wrong_argument_is_invalid_input_through_the_api():
    engine = _EngineThatMustNotBeCalled()
    api = Api(engine)
    for command, kwargs, argument in CASES:
        _assert_refused(getattr(api, command)(**kwargs), command, argument, kwargs)
    assert engine.calls == []


def test_every_wrong_argument_is_invalid_input_through_the_http_server():
    engine = _EngineThatMustNotBeCalled()
    server = start_server(Api(engine))
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        for command, kwargs, argument in CASES:
            conn.request(
                "POST",
                f"/api/{command}",
                body=json.dumps(kwargs).encode(),
                headers={TOKEN_HEADER: server.token, "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            envelope = json.loads(response.read())
            assert response.status == 200
            _assert_refused(envelope, command, argument, kwargs)
    finally:
        conn.close()
        server.stop()
    assert engine.calls == []


def test_positional_arguments_from_the_window_are_checked_the_same_way():
    api = Api(_EngineThatMustNotBeCalled())
    _assert_refused(api.semantic_search(5), "semantic_search", "query")
    _assert_refused(api.set_indexing_paused("false"), "set_indexing_paused", "paused")
    assert api.get_roots(1)["error"]["code"] == "invalid_input"


def test_a_search_text_beyond_the_cap_is_refused_before_it_costs_anything():
    engine = _EngineThatMustNotBeCalled()
    server = start_server(Api(engine))
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request(
            "POST",
            "/api/semantic_search",
            body=json.dumps({"query": "invoice " * 1_300_000}).encode(),
            headers={TOKEN_HEADER: server.token},
        )
        envelope = json.loads(conn.getresponse().read())
        conn.close()
    finally:
        server.stop()
    _assert_refused(envelope, "semantic_search", "query")
    assert f"at most {QUERY_CHARS} characters" in envelope["error"]["message"]
    assert "10,400,000 characters" in envelope["error"]["message"]
    assert engine.calls == []


def test_a_search_text_at_the_cap_reaches_the_engine():
    engine = _EngineThatMustNotBeCalled()
    assert Api(engine).semantic_search(query="a" * QUERY_CHARS)["ok"] is True
    assert engine.calls == ["semantic_search"]


def test_a_path_may_carry_a_surrogate_escaped_byte_but_other_text_may_not():
    engine = _EngineThatMustNotBeCalled()
    api = Api(engine)
    assert (
        api.path_details(path="/docs/Rechnung_M\udcfcller.txt")["ok"] is True
    )  # a Latin-1 name, as Python reads it
    _assert_refused(api.semantic_search(query="M\udcfcller"), "semantic_search", "query")
    _assert_refused(api.discard_action_plan(transaction_id="\udcfc"), "discard_action_plan", "transaction_id")
    _assert_refused(api.set_config(patch={"prompts": {"chat_system": "\udcfc"}}), "set_config", "patch")
    assert engine.calls == ["path_details"]


def test_good_arguments_pass_through_unchanged():
    seen: dict[str, Any] = {}

    class Engine_:
        def chat_with_assistant(self, **kwargs: Any) -> dict[str, Any]:
            seen.update(kwargs)
            return {"answer": "ok"}

    messages = [{"role": "user", "content": "hi", "extra": 1}, {"role": "assistant", "content": None}]
    assert Api(Engine_()).chat_with_assistant(messages=messages, scope="/docs")["ok"] is True
    assert seen == {"messages": messages, "scope": "/docs"}


def test_a_pause_flag_of_the_string_false_does_not_pause_indexing(engine):
    api = Api(engine)
    assert api.set_indexing_paused(paused="false")["error"]["code"] == "invalid_input"
    assert api.indexing_stats()["data"]["paused"] is False
    assert engine.running.settings.indexing.paused is False
    assert api.set_indexing_paused(paused=True)["ok"] is True
    assert api.indexing_stats()["data"]["paused"] is True
