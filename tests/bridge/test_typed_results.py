"""Typed results reach the page as the same JSON the dicts they replaced did (same keys, same types)."""

from __future__ import annotations

import json
import os

import pytest
from pydantic import ValidationError

from bridge.api import Api, ok, to_jsonable
from engine.agent.conversations import ConversationSummary
from engine.agent.mcp import McpTool
from engine.agent.memory import MemoryNote
from engine.agent.probe import EndpointCheck
from engine.results import Done, GpuInfo, Result
from engine.txn.model import ActionPlan, Operation
from engine.txn.results import ApplyResult, Restored, Transaction, TrashItem
from engine.txn.states import TxnStatus

STEP = {"step": "move /d/b.txt back to /d/a.txt", "ok": True}


def test_a_committed_apply_serialises_without_a_rollback_key():
    result = ApplyResult(applied=3, message="Done: 3 operations.")
    assert to_jsonable(result) == {"applied": 3, "message": "Done: 3 operations."}


def test_a_rolled_back_apply_serialises_with_its_rollback_report():
    result = ApplyResult(applied=0, message="Nothing was changed.", rollback=[STEP])
    old = {"applied": 0, "message": "Nothing was changed.", "rollback": [STEP]}
    assert json.dumps(ok(result)) == json.dumps(ok(old))


def test_an_empty_rollback_report_is_kept_not_dropped():
    assert to_jsonable(ApplyResult(applied=0, message="m", rollback=[])) == {
        "applied": 0,
        "message": "m",
        "rollback": [],
    }


def test_a_required_field_that_is_none_is_sent_as_null():
    class Trashed(Result):
        item_id: str
        transaction_id: str | None
        restored_at: str | None = None

    assert to_jsonable(Trashed(item_id="a", transaction_id=None)) == {"item_id": "a", "transaction_id": None}


def test_results_refuse_unknown_fields_and_do_not_change():
    class Counted(Result):
        count: int
        note: str | None = None

    counted = Counted(count=1)
    assert to_jsonable(counted) == {"count": 1}
    with pytest.raises(ValidationError):
        Counted(count=1, extra=2)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        counted.count = 2  # type: ignore[misc]


def test_a_trash_item_serialises_as_the_listing_row_did():
    item = TrashItem(
        item_id="u1", original_path="/d/a.txt", trashed_at="2026-12-01T10:00:00Z", transaction_id="t1"
    )
    old = {
        "item_id": "u1",
        "original_path": "/d/a.txt",
        "trashed_at": "2026-12-01T10:00:00Z",
        "transaction_id": "t1",
    }
    assert json.dumps(ok([item])) == json.dumps(ok([old]))


# Each command typed in this pass, against the JSON its dict used to give (keys and values).
def _same_json(result: object, old: object) -> None:
    assert json.dumps(ok(result), sort_keys=True) == json.dumps(ok(old), sort_keys=True)


def test_an_only_acting_command_still_answers_ok_true():
    _same_json(Done(), {"ok": True})


def test_history_rows_keep_their_optional_keys_absent_unless_they_say_something():
    committed = Transaction(
        transaction_id="t1",
        status=TxnStatus.COMMITTED,
        summary="Tidy up",
        created_at="2026-12-01T10:00:00Z",
        committed_at="2026-12-01T10:01:00Z",
    )
    _same_json(
        committed,
        {
            "transaction_id": "t1",
            "status": "committed",
            "summary": "Tidy up",
            "created_at": "2026-12-01T10:00:00Z",
            "committed_at": "2026-12-01T10:01:00Z",
        },
    )
    operation = {"kind": "delete", "old_path": "/d/a.txt", "reason": "old"}
    refused = Transaction(
        transaction_id="t2",
        status="draft",
        summary="Clean",
        created_at="2026-12-01T10:00:00Z",
        message="a.txt was modified",
        operations=[operation],
        refused=True,
    )
    _same_json(
        refused,
        {
            "transaction_id": "t2",
            "status": "draft",
            "summary": "Clean",
            "created_at": "2026-12-01T10:00:00Z",
            "message": "a.txt was modified",
            "operations": [operation],
            "refused": True,
        },
    )
    undo = Transaction(transaction_id="t3", status="committed", summary="Undo", created_at="x", undo_of="t1")
    assert to_jsonable(undo)["undo_of"] == "t1" and "operations" not in to_jsonable(undo)
    empty_draft = Transaction(transaction_id="t4", status="draft", summary="", created_at="x", operations=[])
    assert to_jsonable(empty_draft)["operations"] == []


def test_restore_memory_conversation_gpu_and_endpoint_results_keep_their_keys():
    _same_json(Restored(path="/d/a.txt"), {"path": "/d/a.txt"})
    _same_json(
        MemoryNote(id=3, note="Jane is my accountant", created_at=1.5, pending=True),
        {"id": 3, "note": "Jane is my accountant", "created_at": 1.5, "pending": True},
    )
    _same_json(
        ConversationSummary(conversation_id="c1", title="Taxes", updated_at=2.5, turns=2),
        {"conversation_id": "c1", "title": "Taxes", "updated_at": 2.5, "turns": 2},
    )
    _same_json(GpuInfo(cuda=False), {"cuda": False})
    _same_json(GpuInfo(cuda=True, device_name="H200"), {"cuda": True, "device_name": "H200"})
    _same_json(
        EndpointCheck(ok=True, message="Connected", tools_supported=True),
        {"ok": True, "tools_supported": True, "message": "Connected"},
    )
    _same_json(
        EndpointCheck(ok=False, message="slip", tools_supported=True, suggested_base_url="http://h/v1"),
        {"ok": False, "tools_supported": True, "message": "slip", "suggested_base_url": "http://h/v1"},
    )


def test_mcp_tool_rows_keep_the_tool_row_and_the_error_row_shapes():
    _same_json(
        McpTool(
            server="notes",
            name="mcp__notes__shout",
            tool="shout",
            description="Shout",
            read_only=False,
            approval="asks",
        ),
        {
            "server": "notes",
            "name": "mcp__notes__shout",
            "tool": "shout",
            "description": "Shout",
            "read_only": False,
            "approval": "asks",
        },
    )
    _same_json(
        McpTool(server="broken", name="", description="", error="could not start"),
        {"server": "broken", "name": "", "description": "", "error": "could not start"},
    )


def test_the_engine_answers_the_typed_commands_through_the_bridge_as_before(tmp_path, engine):
    api = Api(engine)
    assert api.list_transactions() == {"ok": True, "data": []}
    assert api.agent_memory_list() == {"ok": True, "data": []}
    assert api.agent_memory_clear() == {"ok": True, "data": {"ok": True}}
    assert api.list_conversations() == {"ok": True, "data": []}
    assert api.test_chat_endpoint()["data"]["ok"] is False
    assert set(api.test_chat_endpoint()["data"]) == {"ok", "message", "tools_supported"}
    assert api.list_mcp_tools() == {"ok": True, "data": []}


def test_a_reorganisation_plan_reaches_the_page_as_the_plan_json_did():
    plan = ActionPlan(
        transaction_id="t9",
        summary="Group invoices",
        operations=[Operation(kind="mkdir", new_path="/d/Invoices", reason="a home for them")],
    )
    _same_json(plan, plan.to_json_dict())
    assert to_jsonable(plan)["operations"][0]["kind"] == "mkdir"


def test_the_protocol_declares_what_each_engine_command_returns_and_none_is_a_bare_dict():
    """No command is promised as a bare `object` or dict: the protocol names the model the Engine returns."""
    import inspect

    from bridge.engine_api import EngineApi
    from engine.engine import Engine

    for name, member in vars(EngineApi).items():
        if inspect.isfunction(member) and not name.startswith("_"):
            declared = inspect.signature(member).return_annotation
            assert declared != "object", name
            engine_side = inspect.signature(getattr(Engine, name)).return_annotation
            assert declared == engine_side, name
            assert "JSON" not in declared and "dict[" not in declared, f"{name} answers a bare dict"


def test_the_indexing_commands_answer_ok_true_and_a_requalify_count_as_before(tmp_path, engine):
    from engine.indexing.results import Requalifying

    _same_json(Requalifying(count=3), {"count": 3})
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("alpha")
    api = Api(engine)
    assert api.set_indexing_paused(paused=True) == {"ok": True, "data": {"ok": True}}
    assert api.add_indexed_folder(path=str(folder))["ok"] is True
    assert api.reindex_path(path=str(folder / "a.txt")) == {"ok": True, "data": {"ok": True}}
    assert api.retry_indexing() == {"ok": True, "data": {"ok": True}}
    assert api.qualify_folder(path=str(folder)) == {"ok": True, "data": {"count": 0}}
    assert isinstance(engine.qualify_folder(str(folder)), Requalifying)
    assert engine.reindex_path(str(folder)) == Done()


def test_sense_and_queue_results_keep_the_keys_their_dicts_had():
    from engine.indexing.results import FileSense, PinnedSense, QueueRow

    _same_json(FileSense(path="/d/a.txt", sense=None), {"path": "/d/a.txt", "sense": None})
    _same_json(
        PinnedSense(path="/d/a.txt", sense="ACME invoice"),
        {"path": "/d/a.txt", "sense": "ACME invoice", "pinned": True},
    )
    row = {"path": "/d/a.txt", "priority": 5, "action": "index", "status": "queued", "attempts": 0}
    _same_json(QueueRow(**row, error=None), {**row, "error": None})
    _same_json(
        QueueRow(**{**row, "status": "failed"}, error="boom"), {**row, "status": "failed", "error": "boom"}
    )


def test_the_engine_answers_sense_and_queue_commands_through_the_bridge_as_before(tmp_path, engine):
    from engine.indexing.results import FileSense, PinnedSense, QueueRow

    folder = tmp_path / "docs"
    folder.mkdir()
    file = str(folder / "a.txt")
    (folder / "a.txt").write_text("alpha")
    api = Api(engine)
    api.set_indexing_paused(paused=True)
    api.add_indexed_folder(path=str(folder))
    pinned = {"path": file, "sense": "Alpha notes.", "pinned": True}
    assert api.set_file_summary(path=file, summary=" Alpha notes. ") == {"ok": True, "data": pinned}
    assert api.qualify_file(path=file) == {"ok": True, "data": {"path": file, "sense": "Alpha notes."}}
    assert isinstance(engine.set_file_summary(file, "Alpha."), PinnedSense)
    assert engine.qualify_file(file) == FileSense(path=file, sense="Alpha.")
    engine.reindex_path(file)
    rows = engine.indexing_queue()
    assert [type(r) for r in rows] == [QueueRow] and rows[0].path == file and rows[0].status == "queued"
    listed = api.indexing_queue()["data"]
    assert set(listed[0]) == {"path", "priority", "action", "status", "attempts", "error"}


def test_a_stored_conversation_keeps_its_keys_and_its_nulls():
    from engine.agent.conversations import Conversation

    turn = {
        "position": 0,
        "user": "What did ACME bill me?",
        "answer": "1250 EUR.",
        "trace": [{"label": "🔍 Searching: ACME", "tool": "search_files", "arguments": {"query": "ACME"}}],
        "sources": [{"path": "/d/invoice-acme.txt", "name": "invoice-acme.txt"}],
        "plan_id": None,
        "plan": None,
        "model": "scripted",
        "status": "done",
        "stopped": False,
        "error": None,
        "started_at": 1.5,
        "finished_at": None,
    }
    old = {
        "conversation_id": "c1",
        "title": "ACME",
        "created_at": 1.0,
        "updated_at": 2.0,
        "turns": [turn],
        "markdown": "# ACME\n",
        "running": False,
    }
    _same_json(Conversation(**old), old)
    errored = {**turn, "status": "error", "error": {"code": "endpoint", "message": "down"}}
    _same_json(
        Conversation(**{**old, "turns": [errored], "running": True}),
        {**old, "turns": [errored], "running": True},
    )


# The last commands typed (issue 14): each against the dict it answered before, built here by hand.
def _indexed(engine, tmp_path):
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "invoice-acme.txt").write_text("ACME invoice: 1250 EUR for the March consulting work.")
    (folder / "sub" / "notes.md").write_text("Meeting notes about the ACME invoice and the garden.")
    engine.add_indexed_folder(str(folder))
    engine.parts.index.drain()
    return folder


def test_a_search_hit_serialises_to_the_ipc_shape():
    from engine.retrieval.results import SearchResult

    result = SearchResult("/r/a.txt", "a.txt", 0.5, "snip", 2, [(0, 4)])
    assert to_jsonable(result) == {
        "path": "/r/a.txt",
        "name": "a.txt",
        "score": 0.5,
        "snippet": "snip",
        "chunk_index": 2,
        "highlights": [[0, 4]],
        "semantic": "done",
        "page": None,  # issue 33: the scanned page of an OCR hit, null for any other hit
        "copies": [],  # issue 28: the identical copies this row stands for
    }


def test_semantic_search_answers_search_results_whose_json_is_the_old_hit_dict(engine, tmp_path):
    from engine.retrieval.results import SearchResult

    folder = _indexed(engine, tmp_path)
    hits = engine.semantic_search("ACME invoice", scope=str(folder), limit=5)
    assert hits and all(type(hit) is SearchResult for hit in hits)
    old = [
        {
            "path": hit.path,
            "name": hit.name,
            "score": hit.score,
            "snippet": hit.snippet,
            "chunk_index": hit.chunk_index,
            "highlights": [[start, end] for start, end in hit.highlights],
            "semantic": hit.semantic,
            "page": None,  # issue 33: set only for a hit in a scanned PDF's OCR text
            "copies": hit.copies,  # issue 28: identical copies folded into this row
        }
        for hit in hits
    ]
    assert old[0]["path"] == str(folder / "invoice-acme.txt") and old[0]["highlights"]
    _same_json(hits, old)
    assert Api(engine).semantic_search(query="ACME invoice", scope=str(folder), limit=5) == ok(old)


def _phase(phase) -> dict:
    return {
        "done": phase.done,
        "total": phase.total,
        "current": phase.current,
        "rate": phase.rate,
        "eta_s": phase.eta_s,
    }


def test_indexing_stats_answers_the_progress_model_whose_json_is_the_old_stats_dict(engine, tmp_path):
    from engine.indexing.progress import IndexingProgress

    folder = _indexed(engine, tmp_path)
    stats = engine.indexing_stats()
    assert type(stats) is IndexingProgress and stats.done == 2
    old = {
        "seq": stats.seq,
        "keyword": _phase(stats.keyword),
        "semantic": _phase(stats.semantic),
        "roots": [
            {
                "path": str(folder),
                "files": 2,
                "searchable": 2,
                "semantic_done": 2,
                "queued": 0,
                "failed": 0,
            }
        ],
        "files": 2,
        "chunks": stats.chunks,
        "queued": 0,
        "done": 2,
        "failed": 0,
        "skipped": 0,
        "paused": False,
        "current": None,
        "removing": [],
        "scanning": [],
    }
    _same_json(stats, old)
    assert stats.to_dict() == old  # the indexing-progress event carries the same keys
    envelope = Api(engine).indexing_stats()
    assert envelope["data"]["seq"] > stats.seq
    data = envelope["data"]  # a later snapshot: the rates moved on, the keys and counts did not
    assert set(data) == set(old) and set(data["keyword"]) == set(old["keyword"]) == set(data["semantic"])
    assert {k: v for k, v in data.items() if k not in ("seq", "keyword", "semantic")} == {
        k: v for k, v in old.items() if k not in ("seq", "keyword", "semantic")
    }


def test_read_semantics_answers_sense_rows_whose_json_is_the_old_row_dict(engine, tmp_path):
    from engine.indexing.results import SenseRow

    folder = _indexed(engine, tmp_path)
    invoice, notes = str(folder / "invoice-acme.txt"), str(folder / "sub" / "notes.md")
    engine.set_file_summary(invoice, "ACME invoice, March.")
    rows = engine.read_semantics(str(folder), recursive=True)
    assert rows and all(type(row) is SenseRow for row in rows)
    notes_sense = engine.parts.index.catalog.get(notes).sense
    old = [
        {"path": invoice, "sense": "ACME invoice, March.", "doc_type": rows[0].doc_type, "pinned": True},
        {"path": notes, "sense": notes_sense, "doc_type": rows[1].doc_type, "pinned": False},
    ]
    _same_json(rows, old)
    assert Api(engine).read_semantics(path=str(folder)) == ok(old[:1])  # not recursive: the folder's own


def _on_disk(path) -> dict:
    st = os.stat(path)
    return {
        "path": str(path),
        "name": path.name,
        "is_dir": path.is_dir(),
        "size": st.st_size,
        "mtime": st.st_mtime,
    }


UNKNOWN = {"sense": None, "pinned": False, "doc_type": None, "error": None, "note": None, "chunks": 0}


def test_path_details_answers_a_model_whose_json_is_the_old_details_dict(engine, tmp_path):
    from engine.indexing.results import PathDetails

    folder = _indexed(engine, tmp_path)
    invoice, later = folder / "invoice-acme.txt", folder / "later.txt"
    later.write_text("written after the index was built")
    record = engine.parts.index.catalog.get(str(invoice))
    root = {"root": str(folder), "queued": False}
    old = {
        invoice: {
            **_on_disk(invoice),
            **root,
            **UNKNOWN,
            "sense": record.sense,
            "doc_type": record.doc_type,
            "note": record.note,
            "chunks": record.chunks,
            "status": "done",
            "semantic": "done",
        },
        later: {**_on_disk(later), **root, **UNKNOWN, "status": "not indexed"},
        folder / "sub": {**_on_disk(folder / "sub"), **root, **UNKNOWN, "status": "folder", "files": 1},
        folder: {**_on_disk(folder), **root, **UNKNOWN, "status": "folder", "files": 2},
    }
    assert record.chunks >= 1 and record.sense
    api = Api(engine)
    for path, expected in old.items():
        details = engine.path_details(str(path))
        assert type(details) is PathDetails
        _same_json(details, expected)
        assert api.path_details(path=str(path)) == ok(expected)


def test_a_chat_turn_answers_a_turn_result_whose_json_is_the_old_turn_dict(tmp_path):
    from engine.agent import Call, ScriptedModel
    from engine.agent.turn_result import TurnResult
    from engine.config import ReasoningSettings
    from engine.embed import HashingEmbedder
    from engine.engine import Engine

    model = ScriptedModel([[Call("search_files", {"query": "ACME invoice"})], "1250 EUR (invoice-acme.txt)."])
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder(), chat_model=model)
    try:
        folder = _indexed(engine, tmp_path)
        engine.running.settings.reasoning = ReasoningSettings(enabled=True, model="scripted")
        turn = engine.chat_with_assistant([{"role": "user", "content": "What did ACME bill me?"}])
        assert type(turn) is TurnResult
        stored = engine.get_conversation(turn.conversation_id).turns[0]
        old = {
            "answer": "1250 EUR (invoice-acme.txt).",
            "sources": stored.sources,
            "plan": None,
            "steps": ["🔍 Searching: ACME invoice"],
            "trace": stored.trace,
            "conversation_id": turn.conversation_id,
            "turn_id": turn.turn_id,
            "stopped": False,
            "model": "scripted",
        }
        assert stored.sources[0]["path"] == str(folder / "invoice-acme.txt")
        assert set(stored.sources[0]) == {"path", "name", "score", "snippet", "used"}
        assert stored.trace[0]["tool"] == "search_files" and stored.trace[0]["error"] is False
        _same_json(turn, old)
        engine.running.settings.reasoning = ReasoningSettings(enabled=False)
        envelope = Api(engine).chat_with_assistant(messages=[{"role": "user", "content": "hello"}])
        failed = envelope["data"]
        assert failed["error"]["code"] == "no_endpoint" and failed["plan"] is None
        assert set(failed) == set(old) | {"error"}
    finally:
        engine.running.close()
    model.assert_complete()


def test_the_settings_view_declares_every_settings_key_and_is_no_settings():
    from engine.config import Settings, SettingsView

    assert set(SettingsView.model_fields) == set(Settings.model_fields) - {"roots_defaulted"} | {
        "notices",
        "save_notices",
    }
    assert not issubclass(SettingsView, Settings)  # a masked key can never be saved or sent on


def test_get_and_set_config_answer_a_settings_view_whose_json_is_the_old_masked_dict(engine, tmp_path):
    from engine.config import MASK, SettingsView

    api = Api(engine)
    saved = engine.set_config(
        {
            "reasoning": {"base_url": "https://llm.example/v1", "api_key": "sk-1", "model": "m"},
            "mcpServers": {"notes": {"command": "notes-server", "env": {"TOKEN": "t"}, "alwaysAllow": ["a"]}},
        }
    )
    assert type(saved) is SettingsView and saved.save_notices == [] and saved.reasoning.api_key == MASK
    old = engine.running.settings.to_json_dict()
    assert old["reasoning"]["api_key"] == "sk-1"
    old["reasoning"]["api_key"] = MASK
    old["mcpServers"]["notes"]["env"] = {"TOKEN": MASK}
    old["notices"] = []
    assert old["mcpServers"]["notes"]["alwaysAllow"] == ["a"] and old["reasoning"]["reasoning_effort"] is None
    _same_json(saved, {**old, "save_notices": []})
    shown = engine.get_config()
    assert type(shown) is SettingsView and shown.mcp_servers["notes"].always_allow == ["a"]
    _same_json(shown, old)
    assert api.get_config() == ok(old)
    assert api.set_config(patch={"agent": {"max_rounds": 4}}) == ok(
        {**old, "agent": {**old["agent"], "max_rounds": 4}, "save_notices": []}
    )


def test_a_settings_file_that_could_not_be_read_is_in_the_config_as_before(tmp_path):
    from engine.embed import HashingEmbedder
    from engine.engine import Engine

    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text("{ not json", encoding="utf-8")
    engine = Engine(home, embedder=HashingEmbedder())
    try:
        config = engine.get_config()
        assert config.load_warning and config.load_warning in config.notices
        old = {
            **engine.running.settings.to_json_dict(),
            "load_warning": config.load_warning,
            "notices": config.notices,
        }
        _same_json(config, old)
    finally:
        engine.running.close()


def test_the_default_prompts_answer_the_prompt_section_whose_json_is_the_old_dict(engine):
    from engine import prompts
    from engine.config import PromptSettings

    defaults = engine.get_default_prompts()
    assert type(defaults) is PromptSettings and defaults.chat_system == prompts.CHAT_SYSTEM
    old = {
        "chat_system": prompts.CHAT_SYSTEM,
        "doc_qualify": prompts.DOC_QUALIFY,
        "reorganize": prompts.REORGANIZE,
    }
    _same_json(defaults, old)
    assert Api(engine).get_default_prompts() == ok(old)
