"""The bridge's Engine protocol (bridge/engine_api.py) matches both the bridge and the real Engine.

mypy checks the Engine against the protocol in `make lint`; these tests check the same at run time,
and that every engine call an `Api` command makes names a protocol method with keywords it takes.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

from bridge.api import COMMANDS, Api
from bridge.engine_api import EngineApi
from engine.engine import Engine

ANSWERED_BY_THE_WINDOW = {"pick_folder"}


def _protocol_methods() -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(EngineApi).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


def _parameters(signature: inspect.Signature) -> list[tuple[str, object]]:
    return [(p.name, p.default) for p in signature.parameters.values() if p.name != "self"]


def _engine_calls(command: str) -> list[tuple[str, set[str]]]:
    """`self._engine.NAME(keyword=...)` calls in the body of the Api command (under its wrapper)."""
    source = textwrap.dedent(inspect.getsource(inspect.unwrap(getattr(Api, command))))
    calls = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "_engine"
        ):
            keywords = {k.arg for k in node.keywords if k.arg is not None}
            for k in node.keywords:  # `**_given(a=a, b=b)` forwards a and b by name
                if k.arg is None and isinstance(k.value, ast.Call):
                    keywords |= {kw.arg for kw in k.value.keywords if kw.arg is not None}
            calls.append((node.func.attr, keywords))
    return calls


def test_the_protocol_lists_exactly_the_commands_the_engine_answers():
    assert set(_protocol_methods()) == set(COMMANDS) - ANSWERED_BY_THE_WINDOW


def test_the_real_engine_has_every_protocol_method_with_the_same_parameters():
    for name, signature in _protocol_methods().items():
        method = getattr(Engine, name, None)
        assert callable(method), f"Engine has no {name}"
        assert _parameters(inspect.signature(method)) == _parameters(signature), name


def test_every_api_command_calls_one_protocol_method_with_keywords_it_takes():
    methods = _protocol_methods()
    for command in set(COMMANDS) - ANSWERED_BY_THE_WINDOW:
        calls = _engine_calls(command)
        assert len(calls) == 1, f"{command} makes {len(calls)} engine calls"
        (name, keywords) = calls[0]
        assert name in methods, f"Api.{command} calls Engine.{name}, which the protocol does not declare"
        assert keywords <= {p for p, _ in _parameters(methods[name])}, (command, keywords)
