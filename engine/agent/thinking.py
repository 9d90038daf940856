"""Reasoning models' `<think>…</think>` blocks, split from the content.

Its own module because both the model adapter (model.py: a plain `text()` answer drops the thinking)
and the dialects (dialects.py: which build on model.py's ToolCall) need it: here, neither imports the
other for it.
"""

from __future__ import annotations

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


def split_thinking(content: str) -> tuple[str, str]:
    """(thinking, rest): every `<think>…</think>` block out; an unclosed one runs to the end, and a lone
    `</think>` (the template opened the block for the model) ends thinking that began with the reply."""
    thoughts: list[str] = []
    if THINK_CLOSE in content and THINK_OPEN not in content.split(THINK_CLOSE, 1)[0]:
        head, content = content.split(THINK_CLOSE, 1)
        thoughts.append(head)
    rest: list[str] = []
    while THINK_OPEN in content:
        before, _, after = content.partition(THINK_OPEN)
        rest.append(before)
        inner, closed, content = after.partition(THINK_CLOSE)
        thoughts.append(inner)
        if not closed:
            content = ""
    rest.append(content)
    return "\n".join(t.strip() for t in thoughts if t.strip()), "".join(rest).strip()
