"""The settings in force and their one writer.

Every part that reads settings is handed `LiveSettings.current` (a getter, so a change is seen at the
next read) and every part that changes them calls a method here: the roots list, an MCP tool's "Always
allow", the settings page's patch. Nothing calls back into the Engine for them.

A write waits for start-up's repair and journal recovery (`settled`, engine/startup.py): a person's
change issued while the stores open lands after them, never before. Until start-up has checked the roots
against the catalog (settings that lost their roots keep the ones the catalog knows, engine/stores.py),
reading the roots waits too: a folder listing must never run against "no roots yet, so no bounds".

JSON edge: the settings patch as the page or the CLI sent it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.config import Settings, apply_patch, save_settings
from engine.errors import InvalidInput

if TYPE_CHECKING:
    from engine.agent.model import ChatModel
    from engine.key_guard import KeyGuard


class LiveSettings:
    def __init__(
        self, home: Path, settings: Settings, settled: Callable[[], None], chat_model: ChatModel | None = None
    ):
        self.home = home
        self._current = settings
        self._settled = settled
        self._roots_checked = not settings.roots_defaulted
        self._fixed_chat_model = chat_model  # a test's model, in place of the settings' endpoint

    @property
    def current(self) -> Settings:
        return self._current

    def roots(self) -> list[str]:
        """The indexed folders (the one bounds rule reads these, engine/roots.py)."""
        if not self._roots_checked:
            self._settled()
        return self._current.roots

    def adopt(self, settings: Settings) -> None:
        """Start-up's settings after its roots check (already written by that check where it had to)."""
        self._current = settings
        self._roots_checked = True

    def write(self, settings: Settings) -> None:
        self._settled()  # no write before start-up's repair and journal recovery have run
        save_settings(settings, self.home)
        self._current = settings

    def patch(self, patch: dict[str, Any]) -> None:
        self.write(apply_patch(self._current, patch))

    @functools.cached_property
    def key_guard(self) -> KeyGuard:
        """API keys go only where they were entered (docs/api-keys.md). Built on first use, from the
        settings as loaded: only `change` changes keys, and it asks the guard before it does."""
        from engine.key_guard import KeyGuard

        return KeyGuard(self._current)

    def typed_key(self, base_url: str | None, api_key: str | None) -> str | None:
        """The key a reasoning request to an address the person typed may carry (KeyGuard.typed_key)."""
        return self.key_guard.typed_key(self._current, base_url, api_key)

    def change(self, patch: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The settings page's patch, checked (keys by the key guard, a reasoning address that cannot be
        saved, an embedding endpoint probed) and written; returns the patch as applied and what the key
        guard has to say about it."""
        if not isinstance(patch, dict):
            raise InvalidInput("Settings changes must be an object of keys to new values.")
        if "roots" in patch:
            raise InvalidInput("Add or remove folders with the Folders view, not through settings.")
        patch, key_notices = self.key_guard.review(self._current, patch)
        candidate = self.key_guard.finish(apply_patch(self._current, patch))
        if "base_url" in (patch.get("reasoning") or {}):
            from engine.agent.endpoints import refuse_unsaveable

            refuse_unsaveable(candidate.reasoning.base_url)
        if "embedding" in patch and candidate.embedding.provider == "endpoint":
            from engine.embed import embedder_for

            _ = embedder_for(candidate.embedding, self.home / "vectors" / "dims.json").dim  # probe first
        self.write(candidate)
        self.key_guard.trust(self._current)
        return patch, key_notices

    def save_roots(self, roots: list[str]) -> None:
        self.write(self._current.model_copy(update={"roots": roots, "roots_defaulted": False}))

    def save_always_allow(self, server: str, tools: list[str], pins: dict[str, str]) -> None:
        """The person's "Always allow" for an MCP tool, written to `mcpServers.<server>.alwaysAllow`
        with the pin of what the tool declared (`alwaysAllowPins`; engine/agent/approval.py)."""
        self.patch({"mcpServers": {server: {"alwaysAllow": tools, "alwaysAllowPins": pins}}})

    def chat_model(self) -> ChatModel | None:
        """The reasoning model when one is configured and enabled, else None."""
        if self._fixed_chat_model is not None:
            return self._fixed_chat_model
        if not self._current.reasoning.enabled:
            return None
        from engine.agent.model import OpenAIChatModel

        return OpenAIChatModel(self._current.reasoning)

    @property
    def fixed_chat_model(self) -> ChatModel | None:
        return self._fixed_chat_model
