"""The tool protocol for models that cannot take `tools`: a short ReAct-style exchange in plain text.

When an endpoint refuses the `tools` parameter (Ollama's "does not support tools", llama.cpp without
`--jinja`, vLLM without `--enable-auto-tool-choice`), or Settings found the model calls tools only in
text, the loop describes the tools in the system prompt and asks for one line per call:

    Action: search_files {"query": "invoice 2024"}

It runs the call exactly as a native one (same registry, so the same bounds and approvals, same round
limit) and answers with a user message `Observation (search_files): …`. A reply without an action line
is the answer. `dialects.parse_reply(…, actions=True)` reads the action lines, and the Qwen/Mistral/
Llama dialects too, since a model that was trained on one of those falls back to it under pressure.

JSON edge: tool specs and chat messages (the OpenAI wire's JSON), written into the prompt as text.
"""

from __future__ import annotations

import json

from engine.agent.model import Message, ToolSpec

PROTOCOL = """\
You cannot call tools directly here; use this text protocol instead.
To use a tool, write one line and then stop, waiting for its result:
Action: <tool name> <JSON object of arguments>
For example:
Action: search_files {{"query": "invoice 2024"}}
The result comes back in a message that starts with "Observation". Use one tool at a time, at most \
a few times. When you can answer, write the answer with no Action line, citing the files by name.
Tools:
{tools}"""


def _signature(spec: ToolSpec) -> str:
    function = spec.get("function", {})
    params = function.get("parameters", {}) or {}
    required = set(params.get("required") or [])
    args = {
        name: f"{(schema or {}).get('type', 'value')}{'' if name in required else ', optional'}"
        for name, schema in (params.get("properties") or {}).items()
    }
    description = (function.get("description") or "").strip().splitlines()
    summary = description[0] if description else ""
    return f"- {function.get('name')} {json.dumps(args)}: {summary}"


def protocol_prompt(specs: list[ToolSpec]) -> str:
    return PROTOCOL.format(tools="\n".join(_signature(s) for s in specs))


def add_protocol(messages: list[Message], specs: list[ToolSpec]) -> None:
    """Put the protocol into the system message (many chat templates accept a system message only as
    the first one), or start the conversation with one."""
    note = protocol_prompt(specs)
    if messages and messages[0].get("role") == "system":
        messages[0] = {**messages[0], "content": f"{messages[0].get('content') or ''}\n\n{note}"}
    else:
        messages.insert(0, {"role": "system", "content": note})


def observation(tool: str, text: str) -> Message:
    return {"role": "user", "content": f"Observation ({tool}):\n{text}"}
