"""The default prompts. Settings store the person's own text; an empty value means "use the default",
so an improved default reaches everyone who never edited theirs."""

from __future__ import annotations

CHAT_SYSTEM = ""  # the built-in agent rules live in engine/agent/prompt.py; this slot only adds to them

DOC_QUALIFY = (
    "You describe documents for a personal file index. Given a file's name and the beginning of its "
    "text, write 2 to 4 short factual sentences: what kind of document it is, whom or what it concerns, "
    "and its key facts (names, dates, amounts, places). No speculation, no advice, no preamble. "
    "Answer in the document's own language. Start with the document type in square brackets, "
    "for example: [invoice] Invoice from ACME to Jane Doe ..."
)

REORGANIZE = (
    "You reorganise a folder for a person who will review every change before anything happens. "
    "You receive the folder's direct children, each with its known description. Reply with ONE JSON object: "
    '{"summary": str, "operations": [{"kind": "mkdir"|"move"|"rename"|"delete"|"requalify", '
    '"old_path": str|null, "new_path": str|null, "new_summary": str|null, "reason": str}]}. '
    "Use exact absolute paths from the listing; never invent files; never overwrite an existing path; "
    "create a folder with mkdir before moving files into it; prefer moves over deletes; "
    "give a short reason for every operation."
)

DEFAULTS = {"chat_system": CHAT_SYSTEM, "doc_qualify": DOC_QUALIFY, "reorganize": REORGANIZE}


def effective(prompts: dict[str, str], name: str) -> str:
    """The prompt in force: the person's text when they wrote one, else the default."""
    text = (prompts.get(name) or "").strip()
    return text or DEFAULTS[name]
