// The chat panel: conversations with the agent about the indexed files, stored by the engine so they
// survive a reload and a restart. While a turn runs, the agent's steps appear live (agent-step), the
// answer streams in rendered as Markdown (answer-delta), and Stop (or Esc) asks the engine to stop the
// turn (stop_chat): the partial answer is kept, marked stopped. Each answer can be copied and the last
// one regenerated; each question can be edited and sent again. Regenerate and edit send the history up
// to that question, and the engine truncates the stored conversation there (engine/agent/service.py).

import { call, on } from "./api.js";
import { showApproval } from "./approval.js";
import { assistantMessage, editInPlace, finishMessage, liveStep, renderStreaming, userMessage } from "./chat_message.js";
import { initConversations, onOpen, refreshConversations, savedConversation, savedScroll, saveScroll, setActive } from "./conversations.js";
import { bindModelSwitch } from "./models.js";
import { bindScopeSelect } from "./state.js";
import { keepThinking, thinkingDelta } from "./thinking.js";
import { $, h, reportError, toast } from "./ui.js";

export { openPath } from "./chat_message.js";

const SUGGESTIONS = [
  "What are my most recent invoices about?",
  "Summarise the documents in this folder",
  "Tidy this folder into sub-folders by topic",
];

// The open conversation: its id (null until the engine created it) and its turns as stored.
const conversation = { id: null, title: "", turns: [], elements: [] };
let turn = null; // the running turn: {target, conversationId, stopRequested, controller}
let planStatuses = new Map();
let opening = 0;

/** Slot for the tool-approval helper (web/js/approval.js): called with each `tool-approval` payload and
 * the running turn's message element, so its card can sit inside the turn that asked. */
export const hooks = { onToolApproval: null };
export function handleToolApproval(payload) {
  if (hooks.onToolApproval) hooks.onToolApproval(payload, turn ? turn.target.element : null);
}
hooks.onToolApproval = (payload, element) => {
  showApproval(element?.querySelector(".trace") || log(), payload);
  // nothing has streamed yet: no empty bubble with a caret under the card (the first words show it again)
  if (turn && element === turn.target.element && !turn.target.streamed) turn.target.bubble.hidden = true;
};
on("tool-approval", handleToolApproval);

function log() { return $("#chat-log"); }

function scrollToEnd() {
  const el = log();
  el.scrollTop = el.scrollHeight;
}

function setTitle(title) {
  conversation.title = title || "";
  $("#chat-title").textContent = conversation.title || "New chat";
}

/** The title the engine gives a new conversation: its first question on one line, cut at 80 characters. */
function titleOf(text) { return text.split(/\s+/).join(" ").trim().slice(0, 80); }

function historyBefore(index) {
  const messages = [];
  for (const t of conversation.turns.slice(0, index)) {
    messages.push({ role: "user", content: t.user });
    if (t.answer) messages.push({ role: "assistant", content: t.answer });
  }
  return messages;
}

function planStatus(id) { return planStatuses.get(id) || "draft"; }

async function loadPlanStatuses() {
  try { planStatuses = new Map((await call("list_transactions")).map((t) => [t.transaction_id, t.status])); } catch { /* drafts shown as cards */ }
}

function renderTurn(stored, index) {
  const user = userMessage(stored.user, { onEdit: () => editTurn(index) });
  const target = assistantMessage();
  log().append(user, target.element);
  finishMessage(target, stored, { isLast: index === conversation.turns.length - 1, onRegenerate: regenerate, planStatus });
  conversation.elements[index] = { user, target };
}

function renderAll() {
  const empty = $("#chat-empty");
  log().replaceChildren(empty);
  conversation.elements = [];
  empty.hidden = conversation.turns.length > 0;
  conversation.turns.forEach((t, i) => renderTurn(t, i));
}

/** Show a stored conversation (or a new, empty one for null). */
export async function openConversation(id) {
  if (turn) { toast("Wait for the answer, or press Stop, before switching conversations."); return; }
  const ticket = ++opening;
  if (!id) {
    Object.assign(conversation, { id: null, turns: [] });
    setTitle("");
    setActive(null);
    renderAll();
    $("#chat-input").focus();
    return;
  }
  try {
    const [stored] = await Promise.all([call("get_conversation", { conversation_id: id }), loadPlanStatuses()]);
    if (ticket !== opening) return;
    Object.assign(conversation, { id: stored.conversation_id, turns: stored.turns });
    setTitle(stored.title);
    setActive(stored.conversation_id);
    renderAll();
    if (stored.running) showWaiting(stored.conversation_id);
    const top = savedScroll(stored.conversation_id);
    requestAnimationFrame(() => { if (top === null) scrollToEnd(); else log().scrollTop = top; });
  } catch (error) {
    if (error.code === "not_found") { setActive(null); openConversation(null); return; }
    reportError(error, "Could not open the conversation");
  }
}

/** A turn still running in the engine when the page was (re)loaded: the cards of its MCP calls that wait
 * for the person come back in its trace, and the conversation is read again once the turn has ended. */
async function showWaiting(id) {
  let waiting = [];
  try { waiting = await call("list_pending_tool_calls"); } catch { /* the turn still ends; no card */ }
  const last = conversation.elements[conversation.elements.length - 1];
  if (conversation.id !== id || !last) return;
  for (const payload of waiting.filter((w) => w.conversation_id === id)) {
    last.target.trace.hidden = false;
    showApproval(last.target.trace, payload);
  }
  for (let i = 0; i < 900 && conversation.id === id && !turn; i++) { // at most 15 minutes
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
    let stored;
    try { stored = await call("get_conversation", { conversation_id: id }); } catch { return; }
    if (!stored.running) { if (conversation.id === id && !turn) openConversation(id); return; }
  }
}

function setBusy(busy) {
  $("#chat-send").hidden = busy;
  $("#chat-stop").hidden = !busy;
  $("#chat-input").setAttribute("aria-busy", String(busy));
  $("#view-chat").classList.toggle("chat-busy", busy);
}

function streamFrame(target) {
  if (target.frame) return;
  target.frame = requestAnimationFrame(() => { target.frame = null; renderStreaming(target); scrollToEnd(); });
}

function mine(payload) {
  return turn && (!payload.turn_id || !turn.turnId || payload.turn_id === turn.turnId);
}

on("chat-turn", (payload) => {
  if (!turn || turn.turnId) return;
  turn.turnId = payload.turn_id;
  turn.conversationId = payload.conversation_id;
  if (!conversation.id) { // a new conversation is named and listed as soon as it exists
    setTitle(titleOf(turn.text));
    setActive(payload.conversation_id);
    refreshConversations();
  }
  if (turn.stopRequested) stop();
});
on("agent-step", (payload) => { if (mine(payload)) { liveStep(turn.target, payload.step || payload.label || ""); scrollToEnd(); } });
on("agent-thinking", (payload) => { if (mine(payload)) { thinkingDelta(turn.target, payload.delta); scrollToEnd(); } });
on("answer-delta", (payload) => {
  if (!mine(payload)) return;
  turn.target.streamed += payload.delta ?? "";
  streamFrame(turn.target);
});

/** Run a turn at `index` (append, regenerate or edit all end up here). */
async function run(index, text) {
  if (turn || !text.trim()) return;
  // Drop what the engine will drop: every turn from `index` on.
  for (const old of conversation.elements.splice(index)) { old.user.remove(); old.target.element.remove(); }
  conversation.turns.splice(index);
  $("#chat-empty").hidden = true;
  const messages = [...historyBefore(index), { role: "user", content: text }];
  const user = userMessage(text, { onEdit: () => editTurn(index) });
  const target = assistantMessage();
  target.answer.classList.add("streaming");
  log().append(user, target.element);
  conversation.elements[index] = { user, target };
  conversation.elements.slice(0, index).forEach((e) => e.target.actions.querySelector('[data-testid="regenerate"]')?.remove());
  scrollToEnd();
  turn = { target, text, conversationId: conversation.id, turnId: null, stopRequested: false, controller: new AbortController() };
  setBusy(true);
  let result;
  try {
    const scope = $("#chat-scope").value || undefined;
    result = await call("chat_with_assistant", { messages, scope, conversation_id: conversation.id || undefined }, { signal: turn.controller.signal });
  } catch (error) {
    result = error.name === "AbortError"
      ? { answer: target.streamed, stopped: true, sources: [], trace: [] }
      : { answer: "", error: { code: error.code, message: error.message }, sources: [], trace: [] };
  }
  if (target.frame) cancelAnimationFrame(target.frame);
  const stored = { user: text, answer: result.answer || "", trace: result.trace || [], sources: result.sources || [], plan: result.plan || null,
    stopped: Boolean(result.stopped), error: result.error || null, model: result.model || "" };
  conversation.turns[index] = stored;
  if (result.conversation_id && result.conversation_id !== conversation.id) {
    conversation.id = result.conversation_id;
    setTitle(titleOf(text));
    setActive(conversation.id);
  }
  const restoreThinking = keepThinking(target);
  finishMessage(target, stored, { isLast: true, onRegenerate: regenerate, planStatus });
  restoreThinking();
  turn = null;
  setBusy(false);
  scrollToEnd();
  refreshConversations();
  $("#chat-input").focus();
}

function regenerate() {
  const index = conversation.turns.length - 1;
  if (index >= 0) run(index, conversation.turns[index].user);
}

async function editTurn(index) {
  if (turn) return;
  const element = conversation.elements[index]?.user;
  if (!element) return;
  const text = await editInPlace(element, conversation.turns[index]?.user ?? element.textContent);
  if (text !== null) run(index, text);
}

/** Stop the running turn: the engine stops it (partial answer kept); locally abort if it cannot. */
export async function stop() {
  if (!turn) return;
  turn.stopRequested = true;
  $("#chat-stop").disabled = true;
  const current = turn;
  setTimeout(() => { $("#chat-stop").disabled = false; }, 1500);
  if (!current.conversationId) return; // the chat-turn event will call stop() again once the id is known
  try {
    await call("stop_chat", { conversation_id: current.conversationId });
  } catch (error) {
    current.controller.abort();
    reportError(error, "Could not stop the turn in the engine");
  }
  setTimeout(() => { if (turn === current) current.controller.abort(); }, 5000);
}

async function exportConversation() {
  if (!conversation.id) { toast("Nothing to export yet."); return; }
  try {
    const { markdown, title } = await call("get_conversation", { conversation_id: conversation.id });
    const name = `${(title || "conversation").replace(/[^\p{L}\p{N} _-]+/gu, "").trim().slice(0, 60) || "conversation"}.md`;
    const url = URL.createObjectURL(new Blob([markdown], { type: "text/markdown" }));
    h("a", { href: url, download: name }).click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    try { await navigator.clipboard.writeText(markdown); toast(`Exported ${name} (also copied as Markdown).`); } catch { toast(`Exported ${name}.`); }
  } catch (error) { reportError(error, "Could not export"); }
}

function autosize(input) {
  input.style.height = "auto";
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}

export function initChat() {
  const input = $("#chat-input");
  bindScopeSelect($("#chat-scope"));
  bindModelSwitch($("#chat-model"));
  $("#chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value;
    if (turn || !text.trim()) return;
    input.value = "";
    autosize(input);
    run(conversation.turns.length, text);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("#chat-form").requestSubmit(); }
  });
  input.addEventListener("input", () => autosize(input));
  $("#chat-stop").addEventListener("click", stop);
  $("#chat-export").addEventListener("click", exportConversation);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && turn && !$("#dialog").open) { e.preventDefault(); stop(); }
  });
  let scrollTimer = null;
  log().addEventListener("scroll", () => {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(() => saveScroll(conversation.id, log().scrollTop), 150);
  });
  document.addEventListener("sensetree-conversation-renamed", (e) => setTitle(e.detail));
  for (const text of SUGGESTIONS) {
    $("#chat-suggestions").append(h("button.suggestion", { type: "button", onclick: () => { input.value = text; input.focus(); } }, text));
  }
  onOpen(openConversation);
  initConversations();
  openConversation(savedConversation());
}

