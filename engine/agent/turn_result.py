"""What `chat_with_assistant` answers: one turn's outcome, declared once.

The agent fills a working dict while the turn runs (the loop appends steps and trace rows, a plan or
a stop replaces the answer) and hands the page this frozen model at the end; its JSON is the dict's:
every key is sent (`plan` as null when none was proposed) except `error`, which appears only when the
turn failed (`{code, message}`, as the page's error banner reads it). `sources`, `trace` and `plan`
are the JSON rows the turn built and stored (engine/agent/sources.py, service.py, the txn draft).
"""

from __future__ import annotations

from typing import Any

from engine.results import Result


class TurnResult(Result):
    answer: str
    sources: list[Any]  # {path, name, score, snippet, used}, best first
    plan: Any  # the proposed ActionPlan's JSON, or null
    steps: list[str]  # the tool labels shown as the turn ran ("🔍 Searching: ACME")
    trace: list[Any]  # {label, tool, arguments, result, error} per tool call
    conversation_id: str
    turn_id: str
    stopped: bool
    model: str
    error: Any = None  # {code, message} when the turn failed; absent otherwise
