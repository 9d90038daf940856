"""The bridge's contract: exactly the IPC commands of DESIGN §6, JSON in and out, one error envelope."""

from __future__ import annotations

import inspect
import json
import logging
import re
from pathlib import Path

import pytest

from bridge import COMMANDS, Api
from bridge.api import attach_window

REPO = Path(__file__).resolve().parents[2]

# DESIGN §6, copied here so a change on either side is a deliberate edit of both.
DOCUMENTED = {
    "chat_with_assistant",
    "plan_reorganization",
    "apply_action_plan",
    "discard_action_plan",
    "list_transactions",
    "undo_transaction",
    "trash_list",
    "trash_restore",
    "agent_memory_list",
    "agent_memory_delete",
    "agent_memory_clear",
    "qualify_file",
    "qualify_folder",
    "set_file_summary",
    "read_semantics",
    "get_roots",
    "add_indexed_folder",
    "remove_indexed_folder",
    "pick_folder",
    "indexing_stats",
    "indexing_queue",
    "set_indexing_paused",
    "reindex_path",
    "retry_indexing",
    "semantic_search",
    "list_directory",
    "path_details",
    "open_path",
    "get_config",
    "set_config",
    "get_default_prompts",
    "test_chat_endpoint",
    "list_mcp_tools",
    "gpu_available",
    "app_version",
}
# Built beyond DESIGN §6 by open issues (agent_memory_confirm: issue 11's pending notes;
# list_pending_tool_calls: issue 32, an approval card shown again after a reload, docs/agent.md;
# keyword_search: issue 30, the keyword arm alone, shown before the fused list, docs/search-latency.md).
BUILT_BEYOND_DESIGN = {
    "agent_memory_confirm",
    "propose_gardener_fix",
    "list_pending_tool_calls",
    "keyword_search",
    "test_media_endpoint",  # issue 33: Test connection for the vision and transcription endpoints
    "file_thumbnail",  # issue 33: a picture's thumbnail for result lists and chat sources
}

# DESIGN §6a commands the bridge has built, one set per issue; each is checked against the §6a table.
BUILT_6A_APPROVAL = {"approve_tool_call"}
BUILT_6A_CONVERSATIONS = {
    "list_conversations",
    "get_conversation",
    "rename_conversation",
    "delete_conversation",
    "stop_chat",
    "list_models",
}
BUILT_6A_GARDENER = {"analyze_directory", "gardener_health", "semantic_tree"}
BUILT_6A = BUILT_6A_APPROVAL | BUILT_6A_CONVERSATIONS | BUILT_6A_GARDENER
BUILT = DOCUMENTED | BUILT_6A | BUILT_BEYOND_DESIGN


def _design_commands(design: Path, heading: str = "## 6.") -> set[str]:
    section = design.read_text(encoding="utf-8").split(heading, 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for cell in re.findall(r"^\| ([^|]*`[^|]*) \|", section, flags=re.MULTILINE):
        found = re.findall(r"`([a-z_]+)`", cell)
        prefix = found[0].rsplit("_", 1)[0]
        names.update(prefix + name if name.startswith("_") else name for name in found)
    return names


def _design_6a_commands(design: Path) -> set[str]:
    section = design.read_text(encoding="utf-8").split("## 6a.", 1)[1].split("\n## ", 1)[0]
    return {
        name
        for cell in re.findall(r"^\| ([^|]*`[^|]*) \|", section, flags=re.MULTILINE)
        for name in re.findall(r"`([a-z_]+)`", cell)
    }


def test_exposed_public_attributes_are_exactly_the_documented_commands():
    api = Api(engine=None)
    public = {name for name in dir(api) if not name.startswith("_")}
    assert public == BUILT
    assert set(COMMANDS) == BUILT and len(COMMANDS) == len(BUILT)


def test_documented_commands_match_the_design_table_when_the_design_is_at_hand():
    design = next(
        (p / "shared" / "DESIGN.md" for p in REPO.parents if (p / "shared" / "DESIGN.md").exists()), None
    )
    if design is None:
        pytest.skip("DESIGN.md lives outside the repository and is not present here")
    assert _design_commands(design) == DOCUMENTED
    assert BUILT_6A <= _design_6a_commands(design)


def test_page_signatures_in_api_js_match_the_bridge_parameters():
    source = (REPO / "web" / "js" / "api.js").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\s+([a-z_]+): \[([^\]]*)\],$", source, flags=re.MULTILINE))
    page = {name: re.findall(r'"([a-z_]+)"', params) for name, params in table.items()}
    bridge = {name: inspect.getfullargspec(getattr(Api(None), name)).args[1:] for name in COMMANDS}
    assert page == bridge


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "Docs"
    (root / "Invoices").mkdir(parents=True)
    (root / "invoice-acme.txt").write_text("Invoice from ACME Corp, 1250 EUR for consulting in March.\n")
    (root / "notes.md").write_text("# Lisbon trip\nFlights and a hotel in Alfama.\n")
    return root


def _sample_arguments(folder: Path) -> dict[str, dict]:
    file = str(folder / "invoice-acme.txt")
    return {
        "chat_with_assistant": {"messages": [{"role": "user", "content": "What invoices do I have?"}]},
        "plan_reorganization": {"instruction": "tidy", "scope": str(folder)},
        "apply_action_plan": {"transaction_id": "missing"},
        "discard_action_plan": {"transaction_id": "missing"},
        "undo_transaction": {"transaction_id": "missing"},
        "trash_restore": {"item_id": "missing"},
        "agent_memory_delete": {"id": 12345},
        "qualify_file": {"path": file},
        "qualify_folder": {"path": str(folder)},
        "set_file_summary": {"path": file, "summary": "[invoice] ACME, March."},
        "read_semantics": {"path": str(folder), "recursive": True},
        "add_indexed_folder": {"path": str(folder)},
        "remove_indexed_folder": {"path": str(folder / "nope")},
        "indexing_queue": {"limit": 5},
        "set_indexing_paused": {"paused": False},
        "reindex_path": {"path": file},
        "semantic_search": {"query": "ACME invoice", "scope": str(folder), "limit": 3},
        "keyword_search": {"query": "ACME invoice", "scope": str(folder), "limit": 3},
        "list_directory": {"path": str(folder)},
        "path_details": {"path": file},
        "set_config": {"patch": {"agent": {"max_rounds": 4}}},
        "approve_tool_call": {"call_id": "missing", "decision": "deny"},
        "analyze_directory": {"path": str(folder)},
        "semantic_tree": {"query": "ACME invoice", "scope": str(folder), "limit": 5},
        "propose_gardener_fix": {"path": str(folder), "kind": "duplicate"},
    }


def _assert_envelope(envelope: dict) -> None:
    assert json.loads(json.dumps(envelope)) == envelope
    assert isinstance(envelope["ok"], bool)
    if envelope["ok"]:
        assert set(envelope) == {"ok", "data"}
    else:
        assert set(envelope) == {"ok", "error"}
        assert set(envelope["error"]) == {"code", "message"} and envelope["error"]["message"]


def test_every_command_answers_a_json_envelope_over_a_real_engine(engine, folder):
    api = Api(engine)
    api.add_indexed_folder(path=str(folder))
    engine.parts.index.drain()
    arguments = _sample_arguments(folder)
    for name in COMMANDS:
        if name in ("open_path", "remove_indexed_folder"):
            continue  # open_path would launch a desktop program; removal is checked below
        envelope = getattr(api, name)(**arguments.get(name, {}))
        _assert_envelope(envelope)
    results = api.semantic_search(query="ACME invoice", scope=str(folder))["data"]
    assert results[0]["name"] == "invoice-acme.txt"
    assert api.remove_indexed_folder(path=str(folder)) == {"ok": True, "data": []}


def test_engine_errors_keep_their_code_and_message(engine, tmp_path):
    api = Api(engine)
    assert api.semantic_search(query="   ") == {
        "ok": False,
        "error": {"code": "invalid_input", "message": "Type a few words to search for."},
    }
    outside = api.path_details(path=str(tmp_path / "elsewhere.txt"))
    assert outside["ok"] is False and outside["error"]["code"] in {"out_of_bounds", "not_found"}


class _EngineThatBreaks:
    def app_version(self) -> str:
        raise RuntimeError("secret internals /home/jane/private.txt")


def test_unexpected_errors_become_internal_without_details_and_are_logged_once(caplog):
    api = Api(_EngineThatBreaks())
    with caplog.at_level(logging.ERROR, logger="bridge.api"):
        envelope = api.app_version()
    assert envelope["ok"] is False and envelope["error"]["code"] == "internal"
    assert "secret" not in envelope["error"]["message"] and "Traceback" not in envelope["error"]["message"]
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is not None


def test_wrong_arguments_are_refused_as_invalid_input_before_reaching_the_engine():
    api = Api(_EngineThatBreaks())
    envelope = api.semantic_search(question="typo")
    assert envelope["ok"] is False and envelope["error"]["code"] == "invalid_input"
    assert "semantic_search" in envelope["error"]["message"]


class _WindowWithDialog:
    def __init__(self, answer):
        self.answer = answer
        self.kinds = []

    def create_file_dialog(self, kind):
        self.kinds.append(kind)
        return self.answer


def test_pick_folder_is_null_in_a_browser_and_uses_the_native_dialog_in_a_window(tmp_path):
    api = Api(engine=None)
    assert api.pick_folder() == {"ok": True, "data": None}
    window = _WindowWithDialog((str(tmp_path),))
    attach_window(api, window)
    assert api.pick_folder() == {"ok": True, "data": str(tmp_path)}
    assert window.kinds == [20]  # webview.FileDialog.FOLDER
    window.answer = None
    assert api.pick_folder() == {"ok": True, "data": None}
