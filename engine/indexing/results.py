"""The typed answers of the sense commands (engine/indexing/service.py builds them).

Each keeps the JSON its dict gave the page and the CLI (`bridge.to_jsonable` dumps it), so the page
reads the same keys while the engine's callers read attributes the type checker knows.
"""

from __future__ import annotations

from engine.results import Result


class Requalifying(Result):
    """`qualify_folder`: how many unpinned files beneath the folder went back to the queue for a fresh
    sense (pinned ones are a person's word and are skipped)."""

    count: int
