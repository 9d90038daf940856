"""The one-shot reorganisation planner: folder listing in, the model's JSON plan out, parsed tolerantly.

Models wrap JSON in code fences or prose even in JSON mode, so the reply is stripped of fences and
the outermost JSON object is taken. A reply that still is not a plan raises a `ModelError` that
quotes what was wrong; nothing is stored. Invented paths are left to plan validation, which names them.

JSON edge: the reasoning model's reply, read here as the JSON plan object it should hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol

from engine.errors import ModelError
from engine.roots import LIST_LIMIT, Roots

Planner = Callable[[str, str], str]  # (system prompt, user content) → the model's raw JSON-mode reply
MAX_SENSE_CHARS = 300
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)


class SenseSource(Protocol):
    def sense_of(self, path: str) -> tuple[str | None, bool] | None: ...


def folder_listing(roots: Roots, folder: str, index: SenseSource) -> str:
    """`[D]`/`[F]` lines for the folder's direct children (engine/roots.py's one listing, exact paths),
    each file with its known sense."""
    entries = roots.listing(folder, limit=LIST_LIMIT + 1)
    lines = []
    for entry in entries[:LIST_LIMIT]:
        if entry.is_dir:
            lines.append(f"[D] {entry.path}")
            continue
        found = index.sense_of(entry.path)
        sense = (found[0] or "").strip() if found else ""
        lines.append(f"[F] {entry.path}" + (f" — {sense[:MAX_SENSE_CHARS]}" if sense else ""))
    if len(entries) > LIST_LIMIT:
        lines.append(f"… more than {LIST_LIMIT} entries; the rest are not shown")
    return "\n".join(lines) or "(the folder is empty)"


def plan_request(
    planner: Planner | None,
    system_prompt: str,
    instruction: str,
    folder: str,
    index: SenseSource,
    roots: Roots,
) -> tuple[str, list[Any]]:
    """Ask the model for a plan over `folder`; returns (summary, raw operations)."""
    if planner is None:
        raise ModelError(
            "No reasoning model is configured, so SenseTree cannot plan a reorganisation; "
            "set one in Settings → Reasoning"
        )
    if not (instruction or "").strip():
        raise ModelError("Say how the folder should be reorganised (the instruction is empty)")
    user = (
        f"Folder: {folder}\nInstruction: {instruction.strip()}\n\n"
        f"Direct children of the folder:\n{folder_listing(roots, folder, index)}"
    )
    return parse_plan_reply(planner(system_prompt, user))


def parse_plan_reply(reply: str) -> tuple[str, list[Any]]:
    """(summary, operations) from a reply that should hold one JSON plan object."""
    text = (reply or "").strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    if "{" not in text:
        raise ModelError(f"The model's reply holds no JSON object, so no plan was stored: {_quote(reply)}")
    data = _outermost_plan(text)
    return str(data.get("summary") or ""), list(data["operations"])


def _outermost_plan(text: str) -> dict[str, Any]:
    """The first brace that opens a complete JSON plan object; errors quote the first failure."""
    first_error: tuple[json.JSONDecodeError, str] | None = None
    first_value: Any = None
    for match in re.finditer(r"\{", text):
        candidate = text[match.start() :]
        try:
            value, _end = json.JSONDecoder().raw_decode(candidate)
        except json.JSONDecodeError as exc:
            first_error = first_error or (exc, candidate)
            continue
        if isinstance(value, dict) and isinstance(value.get("operations"), list):
            return value
        first_value = value if first_value is None else first_value
    if first_error is not None:
        error, candidate = first_error
        near = candidate[max(0, error.pos - 30) : error.pos + 30]
        raise ModelError(
            f"The model's reply is not valid JSON ({error.msg} at character {error.pos}, near "
            f"{near!r}), so no plan was stored; try again"
        ) from error
    raise ModelError(
        'The model\'s reply is JSON but not a plan (it needs an "operations" list), so no plan '
        f"was stored: {_quote(json.dumps(first_value)[:300])}"
    )


def _quote(text: str, limit: int = 200) -> str:
    text = (text or "").strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")
