"""Every command's arguments are checked against its signature, in one place, before the engine sees them.

The page, `sensetree serve` and any local program can call a command with anything JSON can carry; a
path of `123` or a pause flag of `"false"` must come back as `invalid_input` naming the argument, not
as `internal` from deep inside the engine (or, worse, as a pause). `ArgumentCheck` builds one strict
pydantic model per method from its type hints, once, when the bridge class is defined: strict means no
coercion (`"false"` is not a bool, `"5"` not an int, `1.0` not an int), unknown keyword arguments are
refused, and the bounds below cap what one call may cost (a 10 MB search text took 33 s of CPU).

JSON edge: a command's arguments as the page or an IPC client sent them, checked here against its annotations.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Annotated, Any, NotRequired

from pydantic import ConfigDict, Field, ValidationError, create_model
from typing_extensions import TypedDict

from engine.errors import InvalidInput
from engine.roots import refuse_unusable

QUERY_CHARS = 2_000  # a search text; the longest real question we have seen is ~400 characters
MESSAGE_CHARS = 20_000  # one chat message: room for a pasted paragraph or two, not for a file
MAX_MESSAGES = 400  # the prompt's token budget trims history long before this
SQL_INT = 2**63 - 1  # SQLite's largest integer: a bigger id is refused here, not by an OverflowError
MAX_LIMIT = 10_000
MAX_DEPTH = 32  # nested JSON deeper than this is no argument any command takes
_SHOWN = 60  # characters of a refused value quoted back
# Paths may carry the bytes of a file name that is not UTF-8 as surrogate escapes (U+DC80–U+DCFF, the
# way Python reads such names); no other text an argument holds may contain a lone surrogate, which
# SQLite and the file system cannot encode. A path that can name no file (a NUL byte, a lone surrogate
# that escapes no byte) is refused as out of bounds, with the one message engine/roots.py gives.
PATH_ARGUMENTS = frozenset({"path", "scope", "target_path"})
_ANY_SURROGATE = re.compile("[\ud800-\udfff]")
_NOT_AN_ESCAPE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


class ChatMessage(TypedDict):
    """One message of `chat_with_assistant`; other keys pass through untouched."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]
    role: str
    content: NotRequired[Annotated[str, Field(max_length=MESSAGE_CHARS)] | None]


Query = Annotated[str, Field(max_length=QUERY_CHARS)]
Messages = Annotated[list[ChatMessage], Field(max_length=MAX_MESSAGES)]
RowId = Annotated[int, Field(ge=0, le=SQL_INT)]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT)]

_STRICT = ConfigDict(strict=True, extra="forbid", arbitrary_types_allowed=True)


class ArgumentCheck:
    """The strict argument model of one bridge method (everything after `self`)."""

    def __init__(self, method: Callable[..., Any]):
        self.name = method.__name__
        self.signature = inspect.signature(method)
        hints = typing.get_type_hints(method, include_extras=True)
        fields: dict[str, Any] = {}
        for pname, param in list(self.signature.parameters.items())[1:]:
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[pname] = (hints.get(pname, Any), default)
        self._model = create_model(f"{self.name}_arguments", __config__=_STRICT, **fields)
        self._names = list(fields)

    def __call__(self, owner: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The checked keyword arguments, or InvalidInput that names the first argument at fault."""
        unknown = sorted(set(kwargs) - set(self._names))
        if unknown:
            raise InvalidInput(f"{self.name}: there is no argument `{unknown[0]}`. {self._takes()}")
        missing = [n for n in self._names[len(args) :] if n not in kwargs and self._required(n)]
        if missing:
            raise InvalidInput(f"{self.name}: argument `{missing[0]}` is missing. {self._takes()}")
        try:
            bound = self.signature.bind(owner, *args, **kwargs)
        except TypeError as exc:
            raise InvalidInput(f"{self.name}: {exc}. {self._takes()}") from None
        given = {k: v for k, v in bound.arguments.items() if k in self._names}
        for key, value in given.items():
            if key in PATH_ARGUMENTS and isinstance(value, str):
                refuse_unusable(value)  # a path that names no file is out of bounds, the one refusal
            problem = _shape_problem(value, _NOT_AN_ESCAPE if key in PATH_ARGUMENTS else _ANY_SURROGATE)
            if problem:
                raise InvalidInput(f"{self.name}: argument `{key}` {problem}.")
        try:
            checked = self._model.model_validate(given)
        except ValidationError as exc:
            raise InvalidInput(self._message(exc)) from None
        return {k: getattr(checked, k) for k in given}

    def _required(self, name: str) -> bool:
        return self.signature.parameters[name].default is inspect.Parameter.empty

    def _takes(self) -> str:
        if not self._names:
            return f"{self.name} takes no arguments."
        return f"{self.name} takes {', '.join(self._names)}."

    def _message(self, exc: ValidationError) -> str:
        error = exc.errors(include_url=False)[0]
        loc = error.get("loc") or ()
        where = ".".join(str(part) for part in loc)
        if error.get("type") == "extra_forbidden":
            return f"{self.name}: there is no argument `{where}`. {self._takes()}"
        if error.get("type") == "missing":
            return f"{self.name}: argument `{where}` is missing."
        detail = str(error.get("msg") or "is not valid").removeprefix("Input ").replace("should", "must")
        shown = _quote(error.get("input"))
        return f"{self.name}: argument `{where}` {detail[:1].lower()}{detail[1:]} (got {shown})."


def _shape_problem(value: Any, surrogates: re.Pattern[str]) -> str | None:
    """Refuse text with NUL characters or lone surrogates, and nesting deeper than MAX_DEPTH, walked
    without recursion."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "contains a NUL character"
            if surrogates.search(item):
                return "contains a lone surrogate, which is not valid Unicode text"
        elif isinstance(item, (list, tuple, dict)):
            if depth >= MAX_DEPTH:
                return f"is nested deeper than {MAX_DEPTH} levels"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
            if isinstance(item, dict):
                stack.extend((key, depth + 1) for key in item)
    return None


def _quote(value: Any) -> str:
    kind = type(value).__name__
    if isinstance(value, str):
        text = value if len(value) <= _SHOWN else value[:_SHOWN] + f"… ({len(value):,} characters)"
        return f"{kind} {text!r}"
    if isinstance(value, (list, dict)):
        return f"{kind} of {len(value)}"
    text = repr(value)
    return f"{kind} {text[:_SHOWN]}"
