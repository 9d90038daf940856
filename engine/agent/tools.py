"""A tool is a typed function, declared once: its JSON schema comes from the signature, its description
from the docstring. One registry serves the model (tool specs), the loop (dispatch) and tests (call the
function directly). MCP tools are adapted into the same `Tool`, so the loop cannot tell them apart.

Dispatch never raises: an unknown tool, arguments that do not fit, or a tool that fails all become an
observation the model can read and act on. `run` answers a `ToolOutcome` whose `failed` flag says
whether the call failed or was refused (the trace shows it as an error): a tool reports that by raising
`ToolFailed` with the text the model should read, so nothing classifies an observation by its wording.

JSON edge: a tool's parameter schema is JSON Schema (built here, or the MCP server's), and its arguments
are the model's JSON.
"""

from __future__ import annotations

import inspect
import logging
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.agent.model import ToolArguments, ToolSpec
from engine.errors import EngineError

log = logging.getLogger(__name__)

_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


class ToolFailed(Exception):
    """Raised by a tool that could not do what was asked (a refusal, a missing file, a rejected plan):
    `observation` is what the model reads; the call is marked failed in the trace."""

    def __init__(self, observation: str):
        super().__init__(observation)
        self.observation = observation


@dataclass(frozen=True)
class ToolOutcome:
    """What one tool call gave the model: its observation, and whether the call failed."""

    text: str
    failed: bool = False


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., str]
    label: Callable[[ToolArguments], str]
    strict_args: bool = True  # built-ins check arguments against the signature; MCP servers check their own

    def spec(self) -> ToolSpec:
        """The OpenAI `tools` entry for this tool."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


def json_schema_for(annotation: Any) -> dict[str, Any]:
    """The JSON schema of a parameter annotation (str, int, float, bool, list[...], dict, Optional)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return json_schema_for(members[0]) if len(members) == 1 else {}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if origin is list or annotation is list:
        args = typing.get_args(annotation)
        return {"type": "array", "items": json_schema_for(args[0]) if args else {}}
    if origin is dict or annotation is dict:
        return {"type": "object"}
    return {}


def _docstring_parts(fn: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """The summary paragraph, and `name: text` entries of an `Args:` section; an entry may go on over
    more-indented lines (Google style), so a long description need not overrun the line length."""
    doc = inspect.getdoc(fn) or ""
    summary, _, rest = doc.partition("\nArgs:\n")
    params: dict[str, str] = {}
    last: str | None = None
    indent = 0
    for line in rest.splitlines():
        match = re.match(r"(\s*)(\w+):\s*(.+)", line)
        depth = len(line) - len(line.lstrip())
        if last is not None and line.strip() and depth > indent:
            params[last] += " " + line.strip()
        elif match:
            last, indent = match.group(2), len(match.group(1))
            params[last] = match.group(3).strip()
        else:  # a blank line or a section header (`Returns:`) ends the entry
            last = None
    return " ".join(summary.split()), params


def tool_from_function(
    fn: Callable[..., str], *, label: Callable[[ToolArguments], str], name: str | None = None
) -> Tool:
    """Build a Tool from a typed, documented function (or bound method)."""
    hints = typing.get_type_hints(fn)
    description, param_docs = _docstring_parts(fn)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for pname, param in inspect.signature(fn).parameters.items():
        schema = dict(json_schema_for(hints.get(pname, str)))
        if pname in param_docs:
            schema["description"] = param_docs[pname]
        properties[pname] = schema
        if param.default is inspect.Parameter.empty:
            required.append(pname)
    parameters = {"type": "object", "properties": properties, "required": required}
    return Tool(name=name or fn.__name__, description=description, parameters=parameters, fn=fn, label=label)


def _argument_problem(tool: Tool, arguments: ToolArguments) -> str | None:
    if not tool.strict_args:
        return None
    known = tool.parameters.get("properties", {})
    unexpected = sorted(set(arguments) - set(known))
    missing = [p for p in tool.parameters.get("required", []) if p not in arguments]
    if unexpected:
        return (
            f"unexpected argument(s) {', '.join(unexpected)}; {tool.name} takes {', '.join(known) or 'none'}"
        )
    if missing:
        return f"missing required argument(s) {', '.join(missing)}"
    return None


class ToolRegistry:
    """The tools of one turn, by name."""

    def __init__(self, tools: list[Tool] | None = None):
        self._tools: dict[str, Tool] = {}
        for tool in tools or []:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        if tool.name in self._tools:
            log.warning("tool %s declared twice; keeping the first", tool.name)
            return
        self._tools[tool.name] = tool

    def specs(self) -> list[ToolSpec]:
        return [tool.spec() for tool in self._tools.values()]

    def label(self, name: str, arguments: ToolArguments) -> str:
        tool = self._tools.get(name)
        if tool is None:
            return f"❓ Unknown tool: {name}"
        try:
            return tool.label(arguments)
        except Exception:  # noqa: BLE001 (a label is cosmetic; never let it break the turn)
            return name

    def run(self, name: str, arguments: ToolArguments) -> ToolOutcome:
        """Run a tool; every failure becomes a failed outcome whose text the model reads."""
        tool = self._tools.get(name)
        if tool is None:
            return _failed(
                f"Error: there is no tool named {name!r}. Available tools: {', '.join(self._tools)}."
            )
        problem = _argument_problem(tool, arguments)
        if problem:
            return _failed(f"Error calling {name}: {problem}.")
        try:
            return ToolOutcome(str(tool.fn(**arguments)))
        except ToolFailed as exc:
            return _failed(exc.observation)
        except EngineError as exc:
            return _failed(f"Error from {name}: {exc.message}")
        except Exception as exc:
            log.warning("tool %s failed: %s", name, exc, exc_info=True)
            return _failed(f"Error from {name}: {type(exc).__name__}: {exc}")

    def call(self, name: str, arguments: ToolArguments) -> str:
        """`run`'s observation text alone, for a caller that does not keep a trace."""
        return self.run(name, arguments).text


def _failed(observation: str) -> ToolOutcome:
    return ToolOutcome(observation, failed=True)
