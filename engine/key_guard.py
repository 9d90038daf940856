"""An API key is sent only to the address it was entered for (docs/api-keys.md).

The settings form shows secrets masked and sends the mask back unchanged, which means "keep the stored
key". Combined with a new `base_url`, that would send the stored key to whatever server the new
address names — a typo, a different provider, or an address a hostile page slipped in. `KeyGuard`
remembers, for this run of the app, which (section, origin, key) pairs the person has vouched for:
the pairs in the settings at start-up, and every pair a save produced. A save that moves a section to
another origin keeps the stored key only when the same patch types a new key, clears it, or says
`keep_api_key: true`; otherwise the stored key is dropped and the save says so. An origin is scheme +
host + port, so correcting the path (`/v1` → `/api/v1`) on the same server keeps the key.

MCP servers reached over HTTP follow the same rule for their `headers` (where their tokens live): a
save that moves a server's `url` to another origin drops every stored header the patch does not
type again, unless the server's patch says `keep_headers: true`.

Commands that reach an endpoint with addresses that are not saved (a "test what is typed" button, a
model list for a typed URL) ask `key_for` which key, if any, may go there.

JSON edge: the settings patch as the page or the CLI sent it, reviewed here before it is written.
"""

from __future__ import annotations

import hashlib
import urllib.parse
from typing import Any

from engine import secrets
from engine.config import MASK, Settings
from engine.errors import InvalidInput

SECTIONS = {section: f"{section} endpoint" for section in secrets.SECTIONS}
CONFIRM = "keep_api_key"  # in a patch section: "yes, send the stored key to this new address too"
CONFIRM_HEADERS = "keep_headers"  # the same for an MCP server's headers


def origin(url: str) -> str:
    """scheme://host:port of an address, lower-cased, with the scheme's default port filled in."""
    parts = urllib.parse.urlsplit(url.strip())
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    port = port or {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{(parts.hostname or '').lower()}:{port}"


def _fingerprint(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class KeyGuard:
    def __init__(self, settings: Settings):
        self._trusted: set[tuple[str, str, str]] = set()
        self._drop_headers: dict[str, set[str]] = {}  # decided by review(), applied by finish()
        self.trust(settings)

    def trust(self, settings: Settings) -> None:
        """Vouch for every (section, origin, key) in `settings`: those at start-up, and after each save."""
        for section in SECTIONS:
            current = getattr(settings, section)
            if current.api_key:
                self._trusted.add((section, origin(current.base_url), _fingerprint(current.api_key)))

    def trusts(self, section: str, base_url: str, key: str) -> bool:
        return (section, origin(base_url), _fingerprint(key)) in self._trusted

    def key_for(self, section: str, settings: Settings, base_url: str, given: str | None = None) -> str:
        """The key a request to `base_url` may carry: a key typed with it, else the stored key only if
        it was vouched for that address, else none."""
        if given and given != MASK:
            return given
        stored = getattr(settings, section).api_key
        return stored if stored and self.trusts(section, base_url, stored) else ""

    def typed_key(self, settings: Settings, base_url: str | None, api_key: str | None) -> str | None:
        """The key a reasoning request to an address the person typed may carry: one typed with it, else
        the stored key only where it was entered, so a typed URL never receives it unvouched."""
        if base_url is None:
            return api_key
        return self.key_for("reasoning", settings, base_url.strip(), api_key)

    def review(self, settings: Settings, patch: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The patch to apply (stored keys dropped where they would follow a new address unvouched,
        `keep_api_key` removed) and one notice per dropped key."""
        reviewed, notices = dict(patch), []
        self._drop_headers = {}
        for section, label in SECTIONS.items():
            part = reviewed.get(section)
            if not isinstance(part, dict):
                continue
            part = dict(part)
            confirm = part.pop(CONFIRM, False)
            if not isinstance(confirm, bool):
                raise InvalidInput(f"{section}.{CONFIRM} must be true or false.")
            reviewed[section] = part
            current = getattr(settings, section)
            url, given = part.get("base_url", current.base_url), part.get("api_key")
            if not isinstance(url, str) or (isinstance(given, str) and given != MASK) or confirm:
                # a key typed (or cleared) with this address, a confirmation, or a bad value for apply_patch
                continue
            if current.api_key and not self.trusts(section, url, current.api_key):
                part["api_key"] = ""
                notices.append(
                    f"The saved API key of the {label} was not sent to {url}: SenseTree sends a key "
                    f"only to the address it was entered for. Type the key for {url} to use one there."
                )
        if isinstance(reviewed.get("mcpServers"), dict):
            reviewed["mcpServers"] = self._review_servers(settings, reviewed["mcpServers"], notices)
        return reviewed, notices

    def finish(self, settings: Settings) -> Settings:
        """`settings` (the patch applied) without the MCP headers review() decided to drop."""
        drops, self._drop_headers = self._drop_headers, {}
        servers = dict(settings.mcp_servers)
        for name, keys in drops.items():
            if name in servers:
                kept = {k: v for k, v in servers[name].headers.items() if k not in keys}
                servers[name] = servers[name].model_copy(update={"headers": kept})
        return settings.model_copy(update={"mcp_servers": servers}) if drops else settings

    def _review_servers(
        self, settings: Settings, servers: dict[str, Any], notices: list[str]
    ) -> dict[str, Any]:
        reviewed = dict(servers)
        for name, part in servers.items():
            current = settings.mcp_servers.get(name)
            if not isinstance(part, dict):
                continue
            part = reviewed[name] = dict(part)
            confirm = part.pop(CONFIRM_HEADERS, False)
            if not isinstance(confirm, bool):
                raise InvalidInput(f"mcpServers.{name}.{CONFIRM_HEADERS} must be true or false.")
            url, given = part.get("url"), part.get("headers")
            if current is None or not current.headers or not isinstance(url, str) or confirm:
                continue
            if origin(url) == origin(current.url or ""):
                continue
            typed = given if isinstance(given, dict) else {}
            dropped = {k for k in current.headers if typed.get(k) in (None, MASK)}
            if dropped:
                self._drop_headers[name] = dropped
                notices.append(
                    f"The saved headers of MCP server {name!r} ({', '.join(sorted(dropped))}) were not "
                    f"sent to {url}: type them again for the new address."
                )
        return reviewed
