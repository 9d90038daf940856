"""Settings: one JSON file in the data dir, read into pydantic models with defaults for every field.

The data dir comes from platformdirs unless `SENSETREE_HOME` points elsewhere (tests, portable use).
A settings file that cannot be parsed or read (garbage, a folder, no permission) is moved aside
(`settings.corrupt-<time>.json`) and reported through `Settings.load_warning`; we never silently
overwrite what a person wrote. `Settings.roots_defaulted` says the roots did not come from the file
(no file, a file kept aside, no `roots` key): start-up then keeps the roots the catalog knows instead
of purging the index on the word of defaults. API keys are written to the OS keyring where one works
(engine/secrets.py) and the file is 0600 in a 0700 folder (engine/privacy.py).

JSON edge: the settings file, and the settings patch the page or the CLI sends (`apply_patch`, `masked`).
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import privacy, secrets
from engine.datadir import data_dir as data_dir  # re-exported; it lives in the light module the CLI loads
from engine.errors import ConfigError, InvalidInput
from engine.results import Result

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
MASK = "••••••••"


class _Section(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)


class ReasoningSettings(_Section):
    enabled: bool = False
    base_url: str = "http://127.0.0.1:11434/v1"
    api_key: str = ""
    model: str = ""
    reasoning_effort: str | None = None
    temperature: float | None = 0.2
    timeout_s: float = 60.0
    max_retries: int = 2


class EmbeddingSettings(_Section):
    # "local": the packaged model or a local transformers folder; "endpoint": an OpenAI /v1/embeddings server
    provider: Literal["local", "endpoint"] = "local"
    model: str = (
        "all-MiniLM-L6-v2"  # local: the packaged default or a folder; endpoint: the server's model name
    )
    base_url: str = "http://127.0.0.1:11434/v1"  # endpoint only
    api_key: str = ""  # endpoint only
    device: Literal["auto", "cpu", "cuda"] = "auto"
    # Expert switch, not shown in the window: torch dynamic int8 cost 0.03 nDCG@10 on SciFact and was no
    # faster on 2 cores (bench/quality.py --int8; docs/indexing.md).
    quantize: Literal["none", "int8"] = "none"
    batch_size: int = 32


class RerankSettings(_Section):
    kind: Literal["off", "cross-encoder", "endpoint"] = "off"
    model_path: str = ""  # a local folder with a cross-encoder (no PyPI package ships one)
    base_url: str = ""  # an OpenAI-style /v1/rerank endpoint
    api_key: str = ""
    model: str = ""
    top_n: int = 30


class VisionSettings(_Section):
    """A vision model that captions photos (issue 33). Off while `base_url` or `model` is empty: then no
    photo is sent anywhere. Each photo goes out resized to `max_side` pixels (JPEG, as a data URL)."""

    base_url: str = ""
    api_key: str = ""
    model: str = ""
    timeout_s: float = 60.0  # per photo: a caption that takes longer is given up (and retried later)
    max_side: int = 1024


class TranscriptionSettings(_Section):
    """An OpenAI-compatible `/audio/transcriptions` endpoint (issue 33). Off while `base_url` or `model`
    is empty: then no recording is sent anywhere. Files over `max_mb` are not sent (OpenAI's cap is 25 MB)."""

    base_url: str = ""
    api_key: str = ""
    model: str = ""
    timeout_s: float = 300.0
    max_mb: float = 25.0


class PromptSettings(_Section):
    chat_system: str = ""
    doc_qualify: str = ""
    reorganize: str = ""


class IndexingSettings(_Section):
    paused: bool = False
    qualify_with_model: bool = True
    qualify_effort: str | None = "low"
    max_file_mb: float = 64.0
    max_chars: int = 1_000_000
    chunk_chars: int = 1200
    chunk_overlap: int = 150
    debounce_s: float = 2.0
    max_attempts: int = 3
    watch: bool = True


class AgentSettings(_Section):
    token_budget: int = 12_000
    max_rounds: int = 5
    mcp_timeout_s: float = 30.0
    mcp_output_chars: int = 6000
    approval_timeout_s: float = 300.0  # an MCP call nobody answers is denied after 5 minutes (DESIGN §2a)


class GardenerSettings(_Section):
    """The folder-health audit's thresholds (engine/gardener): what counts as clutter, too deep, stale
    and large, how alike two files must be to be near-duplicates, and how much a pass may read."""

    clutter_files: int = 40  # more files than this directly in one folder is a junk drawer
    max_depth: int = 6  # folders nested deeper than this below the checked folder
    near_duplicate_cosine: float = 0.92  # chunk #0 cosine: P 1.000 / R 0.977 on bench/gardener.py near
    misplaced_margin: float = 0.15  # another folder's centroid must be this much closer than its own
    misplaced_min_cosine: float = 0.3  # ... and at least this close
    large_file_mb: float = 100.0
    stale_days: int = 365
    max_entries: int = 60_000  # a pass lists at most this many entries per folder it checks
    background: bool = True


class AppSettings(_Section):
    autostart: bool = False  # start in the tray at login (per OS convention; engine/autostart.py)


class McpServer(BaseModel):
    """Claude Desktop / Cursor shape: command/args/env for stdio, url/headers for streamable HTTP."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    enabled: bool = True
    # Tools the person allowed for good ("Always allow"); the key Cline uses, so pasted configs keep it.
    always_allow: list[str] = Field(default_factory=list, alias="alwaysAllow")
    # What each allowed tool declared when it was allowed (engine/agent/approval.py `pin`): a tool that
    # changes its description or annotations is asked about again.
    always_allow_pins: dict[str, str] = Field(default_factory=dict, alias="alwaysAllowPins")


class Settings(_Section):
    model_config = ConfigDict(extra="ignore", validate_assignment=True, populate_by_name=True)

    roots: list[str] = Field(default_factory=list)
    reasoning: ReasoningSettings = Field(default_factory=ReasoningSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    rerank: RerankSettings = Field(default_factory=RerankSettings)
    vision: VisionSettings = Field(default_factory=VisionSettings)
    transcription: TranscriptionSettings = Field(default_factory=TranscriptionSettings)
    prompts: PromptSettings = Field(default_factory=PromptSettings)
    indexing: IndexingSettings = Field(default_factory=IndexingSettings)
    agent: AgentSettings = Field(default_factory=AgentSettings)
    app: AppSettings = Field(default_factory=AppSettings)
    gardener: GardenerSettings = Field(default_factory=GardenerSettings)
    mcp_servers: dict[str, McpServer] = Field(default_factory=dict, alias="mcpServers")

    load_warning: str | None = Field(default=None, exclude=True)
    roots_defaulted: bool = Field(default=False, exclude=True)  # the file said nothing about the roots

    def to_json_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude={"load_warning", "roots_defaulted"})


def settings_path(home: Path | None = None) -> Path:
    return (home or data_dir()) / SETTINGS_FILE


def load_settings(home: Path | None = None) -> Settings:
    """Read the settings file; a missing file gives defaults, an unreadable one is moved aside and
    reported."""
    path = settings_path(home)
    if not os.path.lexists(path):
        return Settings(roots_defaulted=True)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("the top level is not a JSON object")  # noqa: TRY004 - read as a corrupt file below
        notices = secrets.resolve(raw)
        settings = Settings.model_validate(raw)
    except (ValueError, ValidationError, UnicodeDecodeError, OSError) as exc:
        return _kept_aside(path, exc)
    settings.roots_defaulted = "roots" not in raw
    if notices:
        settings.load_warning = " ".join(notices)
    return settings


def _kept_aside(path: Path, exc: Exception) -> Settings:
    """Defaults in memory, the unreadable file (or folder) renamed so that the next save can write anew."""
    why = _first_line(exc) if not isinstance(exc, OSError) else (exc.strerror or type(exc).__name__)
    aside = path.with_name(f"settings.corrupt-{time.strftime('%Y%m%d-%H%M%S')}.json")
    try:
        os.replace(path, aside)
        kept = f"It was kept as {aside}"
    except OSError as move_exc:
        kept = f"It could not be moved aside either ({move_exc.strerror or move_exc}); fix or remove {path}"
    warning = (
        f"Your settings file could not be read ({why}). {kept} and SenseTree started with default settings."
    )
    log.warning(warning)
    return Settings(load_warning=warning, roots_defaulted=True)


def save_settings(settings: Settings, home: Path | None = None) -> None:
    """Write atomically (temp file + rename) so a crash never leaves half a settings file."""
    path = settings_path(home)
    tmp = path.with_suffix(".json.tmp")
    data = secrets.protect(settings.to_json_dict())
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, privacy.FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, indent=2, ensure_ascii=False))
        if privacy.posix():
            os.chmod(tmp, privacy.FILE_MODE)  # an older tmp file kept its mode through O_TRUNC
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"Could not save settings to {path}: {exc.strerror or exc}") from exc


def deep_merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Merge `patch` into a copy of `base`; nested dicts merge, everything else replaces."""
    merged = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def apply_patch(settings: Settings, patch: dict[str, Any]) -> Settings:
    """A new Settings with `patch` deep-merged; a masked secret sent back unchanged keeps the stored one."""
    base = settings.to_json_dict()
    patch = _drop_masked(patch)
    servers = patch.get("mcpServers")
    if isinstance(servers, dict):  # `{"mcpServers": {"name": null}}` removes that server
        base["mcpServers"] = {k: v for k, v in base["mcpServers"].items() if servers.get(k, v) is not None}
        patch = {**patch, "mcpServers": {k: v for k, v in servers.items() if v is not None}}
    merged = deep_merge(base, patch)
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        raise InvalidInput(f"Those settings are not valid: {_first_line(exc)}") from exc


def masked(settings: Settings) -> dict[str, Any]:
    """The settings as the UI sees them: every secret replaced by a mask."""
    data = settings.to_json_dict()
    for section in secrets.SECTIONS:
        if data[section].get("api_key"):
            data[section]["api_key"] = MASK
    for server in data["mcpServers"].values():
        for bag in ("env", "headers"):
            server[bag] = {k: MASK for k in server.get(bag, {})}
    if settings.load_warning:
        data["load_warning"] = settings.load_warning
    return data


class SettingsView(Result):
    """`get_config` / `set_config`: the settings as the page sees them, every secret masked, with the
    start-up `notices`, the unreadable-file `load_warning` (absent when there is none) and, after a
    save, the `save_notices` of the key guard (absent from `get_config`). Its JSON is `masked()`'s dict
    plus those keys. It is not a `Settings` on purpose: masked keys must never be saved or sent on.
    The sections are the `Settings` ones (a test pins that both declare the same keys)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    roots: list[str]
    reasoning: ReasoningSettings
    embedding: EmbeddingSettings
    rerank: RerankSettings
    vision: VisionSettings
    transcription: TranscriptionSettings
    prompts: PromptSettings
    indexing: IndexingSettings
    agent: AgentSettings
    app: AppSettings
    gardener: GardenerSettings
    mcp_servers: dict[str, McpServer] = Field(alias="mcpServers")
    notices: list[str]  # what start-up did on the person's behalf (recoveries, repairs, files kept aside)
    load_warning: str | None = None
    save_notices: list[str] | None = None  # set_config only: e.g. an API key not sent to a new address


def shown(settings: Settings, notices: list[str]) -> SettingsView:
    """The settings for the page: `masked(settings)` as a typed view, with the start-up notices."""
    return SettingsView.model_validate({**masked(settings), "notices": notices})


def _drop_masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_masked(v) for k, v in value.items() if v != MASK}
    return value


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
