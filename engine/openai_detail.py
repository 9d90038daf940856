"""What an OpenAI-compatible server said when it refused a request, in one short line: the SDK's error
body holds it in `error.message` (OpenAI, vLLM, Ollama), in `error` as a string (llama.cpp), or not at
all. The reasoning adapter (engine/agent/model.py) and the caption and transcript client
(engine/indexing/media_client.py) both quote it in their messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import openai


def error_detail(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
        if isinstance(error, str):
            return error[:300]
    return (exc.message or str(exc))[:300]
