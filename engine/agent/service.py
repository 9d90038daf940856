"""The agent facade: one method per agent IPC command (DESIGN §6), composing pre-RAG, prompt assembly,
the ReAct loop, memory and MCP behind the `AgentHost` seam.

Every MCP call passes the turn's approval gate (engine/agent/approval.py): a tool that is not declared
read-only nor always allowed pauses the turn until the person answers `approve_tool_call`. Each tool's
arguments go out with its `agent-step` event and its (truncated) result with an `agent-result` event,
so the person can see what was sent to a third-party server and what came back.

A turn never ends in a traceback for the person: endpoint failures come back as a clear answer plus the
sources found so far (and `error: {code, message}`); with the reasoning slot switched off the turn
returns the pre-RAG sources and says where to set an endpoint.

Every turn is stored in its conversation (`conversations.py`) as it starts and again when it ends, so a
reload mid-turn still shows the question. The `messages` the page sends decide where the turn goes:
its k-th user message is turn k-1, and any stored turn from there on is dropped first, which is how
regenerate (send the history without the last answer) and edit-and-resend (send the history up to
the edited question) truncate the conversation. `stop_chat` flips the running turn's stop flag; the
loop checks it before every model and tool call. The turn runs as a `TurnRecord` (turn_result.py) and
answers its frozen `TurnResult`; `messages` arrive as the page's JSON and are checked here.

JSON edge: the chat history as the page or the CLI sends it, cleaned here into the model's messages.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.agent import endpoints
from engine.agent.approval import ToolApprovals, WaitingCall
from engine.agent.builtin import TurnTools
from engine.agent.conversations import Conversation, Conversations, truncate_result
from engine.agent.host import AgentHost
from engine.agent.loop import Answer, Delta, Event, Observation, PlanProposed, Step, Thinking, run_turn
from engine.agent.mcp import McpHub, McpTool, Target
from engine.agent.memory import Memory, MemoryNote
from engine.agent.model import ChatModel, Message, OpenAIChatModel
from engine.agent.probe import EndpointCheck, failed, probe_endpoint
from engine.agent.prompt import PromptParts, assemble, scope_tree
from engine.agent.sources import Excerpt, select_sources
from engine.agent.tool_modes import ToolModes
from engine.agent.tools import ToolRegistry
from engine.agent.turn_result import TurnRecord, TurnResult
from engine.config import ReasoningSettings, Settings
from engine.db import Database
from engine.errors import Conflict, InvalidInput, ModelError
from engine.events import AGENT_RESULT, AGENT_STEP, AGENT_THINKING, ANSWER_DELTA, CHAT_TURN, EventBus
from engine.prompts import effective
from engine.results import Done
from engine.retrieval.results import SearchResult

log = logging.getLogger(__name__)

PRE_RAG_LIMIT = 6
RESULT_EVENT_CHARS = 4000  # what the trace shows of a tool's result; the model gets the tool's own budget
ModelFactory = Callable[[ReasoningSettings], ChatModel]
NO_ENDPOINT = (
    "Chat needs a reasoning endpoint (any OpenAI-compatible server: Ollama, LM Studio, OpenAI …). "
    "Set its base URL and model in Settings → Reasoning and switch it on."
)


def _clean_history(messages: Sequence[Mapping[str, Any]]) -> list[Message]:
    if not isinstance(messages, list):
        raise InvalidInput("messages must be a list of {role, content} objects.")
    history = [
        {"role": m["role"], "content": str(m.get("content") or "")}
        for m in messages
        if isinstance(m, dict) and m.get("role") in ("user", "assistant")
    ]
    if not history or history[-1]["role"] != "user" or not history[-1]["content"].strip():
        raise InvalidInput("The conversation must end with a non-empty user message.")
    return history


def _with_sources(message: str, sources: list[Excerpt]) -> str:
    if not sources:
        return message
    return (
        message
        + "\n\nMeanwhile, these files match your question:\n"
        + "\n".join(f"- {s['name']} ({s['path']})" for s in sources)
    )


class Agent:
    def __init__(
        self,
        host: AgentHost,
        db: Database,
        settings: Callable[[], Settings],
        events: EventBus,
        model_factory: ModelFactory | None = None,
        *,
        mcp_in_process: dict[str, Target] | None = None,
        log_dir: Path | None = None,
        save_always_allow: Callable[[str, list[str], dict[str, str]], None] | None = None,
    ):
        self._host = host
        self._settings = settings
        self._events = events
        self._factory: ModelFactory = model_factory or (lambda rs: OpenAIChatModel(rs))
        self._model_key: str | None = None
        self._model: ChatModel | None = None
        self._model_lock = threading.Lock()
        self.memory = Memory(db)
        self.conversations = Conversations(db)
        self.tool_modes = ToolModes(db)
        self._running: dict[str, threading.Event] = {}
        self._running_lock = threading.Lock()
        self.mcp = McpHub(
            lambda: self._settings().mcp_servers,
            timeout_s=lambda: self._settings().agent.mcp_timeout_s,
            output_chars=lambda: self._settings().agent.mcp_output_chars,
            log_dir=log_dir,
            in_process=mcp_in_process,
        )
        self._save_always_allow = save_always_allow
        # "always" (tool -> pin) for servers not in the settings file
        self._session_allowed: dict[str, dict[str, str]] = {}
        self.approvals = ToolApprovals(
            events,
            timeout_s=lambda: self._settings().agent.approval_timeout_s,
            always_allowed=self._always_allowed,
            allow_always=self._allow_always,
        )

    # ---- IPC commands -----------------------------------------------------------------------
    def chat_with_assistant(
        self,
        messages: Sequence[Mapping[str, Any]],
        scope: str | None = None,
        conversation_id: str | None = None,
    ) -> TurnResult:
        history = _clean_history(messages)
        settings = self._settings()
        folder = self._host.roots.require(scope) if scope else None
        if conversation_id:
            self.conversations.require(conversation_id)
        else:
            conversation_id = self.conversations.create(history[0]["content"])
        position = sum(1 for m in history if m["role"] == "user") - 1
        stop = self._claim(conversation_id)
        turn = TurnRecord(conversation_id, uuid.uuid4().hex, settings.reasoning.model)
        try:
            self.conversations.begin_turn(
                conversation_id, position, history[-1]["content"], settings.reasoning.model
            )
            self._events.publish(CHAT_TURN, {"turn_id": turn.turn_id, "conversation_id": conversation_id})
            self._turn(history, settings, folder, stop, turn)
        except Exception:
            if turn.error is None:
                turn.fail("internal", "The turn failed; the log file has details.")
            raise
        finally:
            self._release(conversation_id)
            self.conversations.finish_turn(position, turn)
        return turn.result()

    def stop_chat(self, conversation_id: str) -> Done:
        """Stop the conversation's running turn; stopping a conversation with no running turn is a no-op."""
        self.conversations.require(conversation_id)
        with self._running_lock:
            flag = self._running.get(conversation_id)
        if flag is not None:
            flag.set()
        return Done()

    def _turn(
        self,
        history: list[Message],
        settings: Settings,
        folder: str | None,
        stop: threading.Event,
        turn: TurnRecord,
    ) -> None:
        tools = TurnTools(self._host, self._host.roots, self.memory, folder)
        tools.said = history[-1]["content"]  # a note quoting the person's own words is theirs, not a file's
        tools.add_sources(self._pre_rag(history[-1]["content"], folder))
        found = list(tools.sources.values())
        if not settings.reasoning.enabled or not settings.reasoning.model:
            turn.answer = _with_sources(NO_ENDPOINT, found)
            turn.fail("no_endpoint", NO_ENDPOINT)
            turn.sources = select_sources(found, "", set())
            return
        parts = PromptParts(
            extra_instructions=effective(settings.prompts.model_dump(), "chat_system"),
            memory=self.memory.prompt_notes(),
            excerpts=found,
            tree=scope_tree(self._host.roots, folder) if folder else [],
            scope=folder,
        )
        prompt = assemble(parts, history, settings.agent.token_budget)
        try:
            self._drive(prompt, tools, settings, turn, stop)
        except ModelError as exc:
            log.warning("chat turn failed: %s", exc.message)
            turn.answer = _with_sources(exc.message, list(tools.sources.values()))
            turn.fail(exc.code, exc.message)
        turn.sources = select_sources(list(tools.sources.values()), turn.answer, turn.read_paths())
        turn.answer += tools.pending_notice()  # a note from this turn awaits the person's confirmation

    def _claim(self, conversation_id: str) -> threading.Event:
        with self._running_lock:
            if conversation_id in self._running:
                raise Conflict("This conversation is still answering; wait for it or press Stop first.")
            flag = self._running[conversation_id] = threading.Event()
        return flag

    def _release(self, conversation_id: str) -> None:
        with self._running_lock:
            self._running.pop(conversation_id, None)

    def test_chat_endpoint(
        self, base_url: str | None = None, api_key: str | None = None, model: str | None = None
    ) -> EndpointCheck:
        """Test the saved endpoint, or what the person typed (any argument given) without saving it."""
        saved = self._settings().reasoning
        if base_url is None and api_key is None and model is None:
            if not saved.model:
                return failed("No model is set. " + NO_ENDPOINT)
            tested, verdict = saved, probe_endpoint(self._current_model(saved), saved)
        else:
            tested = endpoints.typed_settings(saved, base_url, api_key, model)
            verdict = endpoints.check_typed(tested, self._factory)
        if verdict.ok and verdict.tool_mode:  # the next turns with this model start in the mode found
            self.tool_modes.set(tested.base_url, tested.model, verdict.tool_mode)
        return verdict

    def list_models(self, base_url: str | None = None, api_key: str | None = None) -> list[str]:
        typed = endpoints.typed_settings(self._settings().reasoning, base_url, api_key, None)
        return endpoints.list_models(typed, self._factory)

    def get_conversation(self, conversation_id: str) -> Conversation:
        conversation = self.conversations.get(conversation_id)
        with self._running_lock:
            running = conversation_id in self._running
        return conversation.model_copy(update={"running": running})

    def list_mcp_tools(self) -> list[McpTool]:
        return self.mcp.list_tools(self.approvals.status)

    def approve_tool_call(self, call_id: str, decision: str) -> Done:
        return self.approvals.answer(call_id, decision)

    def list_pending_tool_calls(self) -> list[WaitingCall]:
        return self.approvals.waiting()

    def agent_memory_list(self) -> list[MemoryNote]:
        return self.memory.entries()

    def agent_memory_delete(self, id: int) -> Done:  # the IPC argument is named id
        self.memory.delete(id)
        return Done()

    def agent_memory_confirm(self, id: int) -> MemoryNote:
        return self.memory.confirm(id)

    def agent_memory_clear(self) -> Done:
        self.memory.clear()
        return Done()

    def close(self) -> None:
        self.approvals.close()  # a turn waiting for an answer ends now, as a denial
        self.mcp.close()
        closer = getattr(self._model, "close", None)
        if callable(closer):
            closer()

    # ---- internals --------------------------------------------------------------------------
    def _pre_rag(self, question: str, scope: str | None) -> list[SearchResult]:
        try:
            return self._host.search(question, scope, PRE_RAG_LIMIT)[:PRE_RAG_LIMIT]
        except Exception as exc:  # noqa: BLE001 (a search failure must not cost the person their answer)
            log.warning("pre-RAG search failed: %s", exc)
            return []

    def _drive(
        self,
        prompt: list[Message],
        tools: TurnTools,
        settings: Settings,
        turn: TurnRecord,
        stop: threading.Event,
    ) -> None:
        registry = ToolRegistry(tools.tools())
        gate = self.approvals.gate(turn.turn_id, turn.conversation_id)
        for tool in self.mcp.tools(gate) if settings.mcp_servers or self.mcp.has_in_process else []:
            registry.add(tools.external(tool))  # its output counts as read content for `remember`
        model = self._current_model(settings.reasoning)
        for event in run_turn(
            model,
            registry,
            prompt,
            max_rounds=settings.agent.max_rounds,
            plan_of=lambda: tools.plan,
            stop=stop.is_set,
            tool_mode=self.tool_modes.get(settings.reasoning.base_url, settings.reasoning.model) or "native",
        ):
            self._publish(event, turn)
            if isinstance(event, Step):
                turn.step(event.label, event.tool, event.arguments)
            elif isinstance(event, Observation):
                turn.observed(truncate_result(event.text), event.failed)
            elif isinstance(event, PlanProposed):
                turn.proposed(event.plan)
            elif isinstance(event, Answer):
                turn.answered(event.text, stopped=event.stopped)

    def _publish(self, event: Event, turn: TurnRecord) -> None:
        """Show the turn as it runs: each tool call before it runs, its result, the answer and the thinking
        as they stream (thinking is shown live, never stored nor answered)."""
        ids = {"turn_id": turn.turn_id, "conversation_id": turn.conversation_id}
        if isinstance(event, Step):
            step = {"step": event.label, "tool": event.tool, "arguments": event.arguments}
            self._events.publish(AGENT_STEP, {**ids, **step, "call_id": event.call_id})
        elif isinstance(event, Observation):
            shown = truncate_result(event.text, RESULT_EVENT_CHARS)
            payload = {"turn_id": turn.turn_id, "call_id": event.call_id, "tool": event.tool, "result": shown}
            self._events.publish(AGENT_RESULT, payload)
        elif isinstance(event, Delta | Thinking):
            self._events.publish(
                ANSWER_DELTA if isinstance(event, Delta) else AGENT_THINKING, {**ids, "delta": event.text}
            )

    def _always_allowed(self, server: str) -> dict[str, str | None]:
        """Each tool the person allowed for good on `server`, with the pin it was allowed with."""
        config = self._settings().mcp_servers.get(server)
        saved = {t: config.always_allow_pins.get(t) for t in config.always_allow} if config else {}
        return {**saved, **self._session_allowed.get(server, {})}

    def _allow_always(self, server: str, tool: str, pinned: str) -> None:
        """Remember "Always allow" with the tool's pin: in `mcpServers.<server>.alwaysAllow` and
        `alwaysAllowPins`, or for this session when the server is not in the settings file."""
        config = self._settings().mcp_servers.get(server)
        if config is None:
            self._session_allowed.setdefault(server, {})[tool] = pinned
            return
        tools = config.always_allow if tool in config.always_allow else [*config.always_allow, tool]
        pins = {**config.always_allow_pins, tool: pinned}
        if self._save_always_allow is not None:
            self._save_always_allow(server, tools, pins)
        else:
            config.always_allow, config.always_allow_pins = tools, pins

    def _current_model(self, settings: ReasoningSettings) -> ChatModel:
        key = settings.model_dump_json()
        with self._model_lock:
            if self._model is None or key != self._model_key:
                closer = getattr(self._model, "close", None)
                if callable(closer):
                    closer()
                self._model, self._model_key = self._factory(settings), key
            return self._model
