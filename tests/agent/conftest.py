"""Agent test fixtures: an Agent factory over any host and model, closed after the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.agent import MIGRATIONS, Agent
from engine.config import Settings
from engine.db import Database
from engine.events import EventBus
from tests.agent.helpers import chat_settings

AgentFactory = Callable[..., tuple[Agent, EventBus, list[tuple[str, dict[str, Any]]]]]


@pytest.fixture
def make_agent(tmp_path: Path) -> Iterator[AgentFactory]:
    """make_agent(host, model, settings=None) -> (agent, bus, events seen)."""
    agents: list[Agent] = []

    def build(host: Any, model: Any, settings: Settings | None = None, **kwargs: Any):
        db = Database(tmp_path / "agent.db")
        db.migrate(MIGRATIONS)
        bus = EventBus()
        seen: list[tuple[str, dict[str, Any]]] = []
        bus.subscribe(lambda topic, payload: seen.append((topic, payload)))
        current = settings or chat_settings()
        agent = Agent(host, db, lambda: current, bus, lambda _rs: model, **kwargs)
        agents.append(agent)
        return agent, bus, seen

    yield build
    for agent in agents:
        agent.close()
