from __future__ import annotations

from typing import Any

from engine.agent.tools import ToolFailed, ToolOutcome, ToolRegistry, tool_from_function
from engine.errors import NotFound


def lookup(name: str, limit: int = 3, exact: bool | None = None, tags: list[str] | None = None) -> str:
    """Find things by name.

    Args:
        name: what to look for
        limit: how many to return
    """
    return f"{name}:{limit}:{exact}:{tags}"


def test_tool_schema_comes_from_the_signature_and_docstring():
    tool = tool_from_function(lookup, label=lambda a: "x")
    assert tool.description == "Find things by name."
    params = tool.parameters
    assert params["required"] == ["name"]
    assert params["properties"]["name"] == {"type": "string", "description": "what to look for"}
    assert params["properties"]["limit"]["type"] == "integer"
    assert params["properties"]["exact"] == {"type": "boolean"}
    assert params["properties"]["tags"] == {"type": "array", "items": {"type": "string"}}
    assert tool.spec()["function"]["name"] == "lookup"


def shelve(title: str, where: str) -> str:
    """Put a thing on a shelf.

    Args:
        title: the thing's title, which may be long enough
            to go on over a second line
        where: which shelf

    Returns:
            a receipt, not an argument
    """
    return f"{title}@{where}"


def test_an_argument_description_may_go_on_over_more_indented_lines():
    properties = tool_from_function(shelve, label=lambda a: "x").parameters["properties"]
    title = properties["title"]["description"]
    assert title == "the thing's title, which may be long enough to go on over a second line"
    assert properties["where"]["description"] == "which shelf"


def test_registry_dispatches_by_name_with_keyword_arguments():
    registry = ToolRegistry([tool_from_function(lookup, label=lambda a: "x")])
    assert registry.call("lookup", {"name": "a", "limit": 2}) == "a:2:None:None"


def test_unknown_tool_becomes_an_observation_naming_the_available_tools():
    registry = ToolRegistry([tool_from_function(lookup, label=lambda a: "x")])
    text = registry.call("delete_everything", {})
    assert "no tool named 'delete_everything'" in text and "lookup" in text


def test_missing_and_unexpected_arguments_become_observations():
    registry = ToolRegistry([tool_from_function(lookup, label=lambda a: "x")])
    assert "missing required argument(s) name" in registry.call("lookup", {})
    assert "unexpected argument(s) path" in registry.call("lookup", {"name": "a", "path": "/"})


def test_a_tool_that_raises_becomes_an_observation():
    def broken(path: str) -> str:
        """Always fails."""
        raise NotFound(f"{path} is gone")

    def crashing(path: str) -> Any:
        """Crashes."""
        raise ZeroDivisionError("boom")

    registry = ToolRegistry(
        [tool_from_function(broken, label=lambda a: "b"), tool_from_function(crashing, label=lambda a: "c")]
    )
    assert registry.call("broken", {"path": "/x"}) == "Error from broken: /x is gone"
    assert registry.call("crashing", {"path": "/x"}) == "Error from crashing: ZeroDivisionError: boom"


def test_a_call_is_marked_failed_by_how_it_ended_not_by_how_its_text_begins():
    def quote(path: str) -> str:
        """Returns a file's text, which happens to begin like an error."""
        return "Error budget: 3 incidents this quarter."

    def refuse(path: str) -> str:
        """Refuses, as a tool does for a path outside the roots."""
        raise ToolFailed(f"Refused: {path} is outside the indexed folders")

    registry = ToolRegistry(
        [tool_from_function(quote, label=lambda a: "q"), tool_from_function(refuse, label=lambda a: "r")]
    )
    quoted = registry.run("quote", {"path": "/d/ops.md"})
    assert quoted == ToolOutcome("Error budget: 3 incidents this quarter.", failed=False)
    refused = registry.run("refuse", {"path": "/etc"})
    assert refused.failed and refused.text == "Refused: /etc is outside the indexed folders"
    assert registry.run("missing", {}).failed and registry.run("quote", {}).failed
