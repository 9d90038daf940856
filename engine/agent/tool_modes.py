"""How each model takes tools, as Test connection found it: `native`, `text` or `none`, per endpoint
and model (table `agent_tool_modes`).

The probe costs two small requests, so it runs when the person presses Test connection, not before
every turn; a turn then starts in the stored mode (a model known to refuse `tools` goes straight to the
text protocol instead of paying for a refused request each turn). A model never tested is `native`: the
loop still falls back to the text protocol when the endpoint refuses tools.
"""

from __future__ import annotations

import time
from typing import Literal, get_args

from engine.db import Database, Migration

# How tools reach a model (engine/agent/loop.py): the `tools` parameter, the ReAct text protocol, or none.
ToolMode = Literal["native", "text", "none"]
TOOL_MODES: tuple[ToolMode, ...] = get_args(ToolMode)

MIGRATIONS: list[Migration] = [
    (
        "agent_tool_modes_0001",
        """
        CREATE TABLE agent_tool_modes (
            base_url TEXT NOT NULL,
            model TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('native', 'text', 'none')),
            checked_at REAL NOT NULL,
            PRIMARY KEY (base_url, model)
        );
    """,
    ),
]


class ToolModes:
    def __init__(self, db: Database):
        self._db = db

    def get(self, base_url: str, model: str) -> ToolMode | None:
        row = self._db.one(
            "SELECT mode FROM agent_tool_modes WHERE base_url = ? AND model = ?", (_key(base_url), model)
        )
        stored = row["mode"] if row is not None else None
        return next((mode for mode in TOOL_MODES if mode == stored), None)  # the table CHECKs the three

    def set(self, base_url: str, model: str, mode: ToolMode) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO agent_tool_modes(base_url, model, mode, checked_at) VALUES (?, ?, ?, ?)",
            (_key(base_url), model, mode, time.time()),
        )


def _key(base_url: str) -> str:
    return base_url.strip().rstrip("/")
