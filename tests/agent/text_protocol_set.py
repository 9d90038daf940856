"""A scripted set of 20 turns for the text protocol: a small model with tools refused, writing its
actions the ways small models do (plain, with a thought first, in bold, fenced, spread over lines,
LangChain's `Action Input:`, its own Hermes dialect, an invented observation after the call, Python
dicts for JSON, and the one slip the protocol does not read: a Python-style call `name(query=…)`).

`FakeSmallModel` plays one question: it searches with the question's words, reads the first path the
observation lists, then answers naming that file. Whether the turn found and cited the right file is
decided by the agent's own result (the sources marked used, the answer text), not by the fake.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.agent.model import Message, ModelReply, ToolsRejected

FILES = {
    "invoice-2024.txt": "ACME invoice 2024: total due 1200 EUR by March.",
    "lease.txt": "Apartment lease: rent 850 EUR monthly, landlord Mrs Weber.",
    "insurance.txt": "Car insurance policy 77-A, premium 420 EUR per year.",
    "recipe.txt": "Grandma's apple pie: apples, cinnamon, butter, 45 minutes.",
    "vet.txt": "Vet appointment for Luna the cat on 12 June, vaccination.",
    "payslip-may.txt": "Payslip May: net salary 2900 EUR, employer Contoso.",
    "tax-return.txt": "Tax return 2023 filed, refund 310 EUR expected in August.",
    "dentist.txt": "Dentist invoice: crown treatment 640 EUR, Dr Alvarez.",
    "garden.txt": "Garden plan: tomatoes in May, basil beside them, water daily.",
    "flight.txt": "Flight booking LH 455 to Lisbon, seat 14C, 3 September.",
}

QUESTIONS = [
    ("How much is the ACME invoice?", "invoice-2024.txt", "plain"),
    ("What rent do I pay for the apartment?", "lease.txt", "thought first"),
    ("What is my car insurance premium?", "insurance.txt", "bold"),
    ("How long does the apple pie bake?", "recipe.txt", "fenced"),
    ("When is Luna's vet appointment?", "vet.txt", "multi-line JSON"),
    ("What was my net salary in May?", "payslip-may.txt", "action input"),
    ("When is the tax refund expected?", "tax-return.txt", "hermes"),
    ("How much was the dentist crown?", "dentist.txt", "invented observation"),
    ("What goes beside the tomatoes in the garden?", "garden.txt", "plain"),
    ("Which seat is my Lisbon flight?", "flight.txt", "thought first"),
    ("Who is my landlord?", "lease.txt", "bold"),
    ("Which employer pays my salary?", "payslip-may.txt", "fenced"),
    ("What is the insurance policy number?", "insurance.txt", "multi-line JSON"),
    ("Which doctor did the crown treatment?", "dentist.txt", "action input"),
    ("What is due on the ACME invoice by March?", "invoice-2024.txt", "hermes"),
    ("What vaccination does Luna the cat get?", "vet.txt", "invented observation"),
    ("What flight number goes to Lisbon?", "flight.txt", "plain"),
    ("Which spices go in the apple pie?", "recipe.txt", "thought first"),
    ("How much refund for the 2023 tax return?", "tax-return.txt", "python call"),
    ("How often should the garden be watered?", "garden.txt", "single quotes"),
]


def write_files(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (root / name).write_text(text)


def action(style: str, name: str, args: dict[str, Any]) -> str:
    """One action written in `style`, as small models write them."""
    line = f"Action: {name} {json.dumps(args)}"
    return {
        "plain": line,
        "thought first": f"Thought: I should look this up in the files.\n{line}",
        "bold": f"**Action:** {name} {json.dumps(args)}",
        "fenced": f"```\n{line}\n```",
        "multi-line JSON": f"Action: {name} {json.dumps(args, indent=2)}",
        "action input": f"Thought: use a tool.\nAction: {name}\nAction Input: {json.dumps(args)}",
        "hermes": f'<tool_call>\n{{"name": "{name}", "arguments": {json.dumps(args)}}}\n</tool_call>',
        "invented observation": f"{line}\nObservation: (the file says it all)",
        "python call": f"Action: {name}({', '.join(f'{k}={v!r}' for k, v in args.items())})",
        "single quotes": f"Action: {name} {args!r}",
    }[style]


@dataclass
class FakeSmallModel:
    """A model with tools refused that follows the text protocol in one style of writing."""

    style: str
    question: str

    def __post_init__(self) -> None:
        self.requests: list[tuple[list[Message], Any]] = []

    def chat(self, messages: list[Message], tools: list[dict[str, Any]] | None) -> Any:
        self.requests.append((list(messages), tools))
        if tools:
            raise ToolsRejected("registry.ollama.ai/library/small does not support tools")
        text = self._reply(messages)
        yield text
        yield ModelReply(content=text)

    def _reply(self, messages: list[Message]) -> str:
        last = str(messages[-1].get("content") or "")
        if last.startswith("Observation (read_file)"):
            path = self._read_path(messages)
            return f"According to {Path(path).name}: {last.split(chr(10), 1)[-1][:120]}"
        if last.startswith("Observation (search_files)"):
            paths = re.findall(r"(/[^\s:]+\.txt)", last)
            return action(self.style, "read_file", {"path": paths[0]}) if paths else "Nothing found."
        words = " ".join(re.findall(r"[A-Za-z0-9]{3,}", self.question))
        return action(self.style, "search_files", {"query": words})

    def _read_path(self, messages: list[Message]) -> str:
        for message in reversed(messages):
            if message["role"] == "assistant":
                found = re.search(r"""['"]path['"]:\s*['"]([^'"]+)""", str(message.get("content")))
                if found:
                    return found.group(1)
        return ""

    def text(self, system: str, user: str, *, json_mode: bool = False, effort: str | None = None) -> str:
        raise AssertionError("no one-shot text in a chat turn")
