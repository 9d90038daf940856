"""Durable memory: one-line notes the agent saves with `remember`, shown (and deletable) in Settings.

Notes are trimmed, empty ones ignored, and duplicates (ignoring case and whitespace) are not saved
twice. The newest `PROMPT_NOTES` go into every system prompt; they leave the machine only inside that
prompt, sent to the endpoint the person configured.
"""

from __future__ import annotations

import re
import time
from typing import Any

from engine.db import Database, Migration
from engine.errors import NotFound

PROMPT_NOTES = 50
MAX_NOTE_CHARS = 500

MIGRATIONS: list[Migration] = [
    ("agent_memory_0001", """
        CREATE TABLE agent_memory (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            note TEXT NOT NULL,
            note_key TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL
        );
        CREATE INDEX agent_memory_created ON agent_memory(created_at);
    """),
]


def note_key(note: str) -> str:
    """The deduplication key: case-folded, whitespace collapsed."""
    return " ".join(note.split()).casefold()


class Memory:
    def __init__(self, db: Database):
        self._db = db

    def remember(self, note: str) -> dict[str, Any] | None:
        """Save a note; returns it, the existing duplicate (with `duplicate: True`), or None when empty."""
        text = re.sub(r"\s+", " ", note or "").strip()[:MAX_NOTE_CHARS]
        if not text:
            return None
        key = note_key(text)
        with self._db.atomic() as conn:
            row = conn.execute("SELECT id, note, created_at FROM agent_memory WHERE note_key = ?", (key,)).fetchone()
            if row is not None:
                return {**dict(row), "duplicate": True}
            cur = conn.execute("INSERT INTO agent_memory(note, note_key, created_at) VALUES (?, ?, ?)",
                               (text, key, time.time()))
        return {"id": cur.lastrowid, "note": text, "created_at": time.time(), "duplicate": False}

    def entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Newest first: `[{id, note, created_at}]`."""
        sql = "SELECT id, note, created_at FROM agent_memory ORDER BY created_at DESC, id DESC"
        rows = self._db.query(sql + " LIMIT ?", (limit,)) if limit else self._db.query(sql)
        return [dict(r) for r in rows]

    def prompt_notes(self) -> list[str]:
        """The notes that go into the prompt: the newest PROMPT_NOTES, oldest of them first."""
        return [r["note"] for r in reversed(self.entries(PROMPT_NOTES))]

    def delete(self, note_id: int) -> None:
        if self._db.execute("DELETE FROM agent_memory WHERE id = ?", (int(note_id),)).rowcount == 0:
            raise NotFound(f"There is no memory note with id {note_id}; refresh the list in Settings.")

    def clear(self) -> int:
        return self._db.execute("DELETE FROM agent_memory").rowcount
