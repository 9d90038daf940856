// The chat panel: a conversation with the agent about the indexed files. While a turn runs, the agent's
// steps appear live (agent-step events) and the answer streams in (answer-delta events); the final
// result replaces the stream with the rendered answer, clickable source chips and, when the agent
// proposed changes, an Action Plan card. A turn can be stopped; Clear discards plans still pending.

import { call, on } from "./api.js";
import { showApproval } from "./approval.js";
import { linkifySources, renderMarkdown } from "./markdown.js";
import { pendingPlans, planCard } from "./plan.js";
import { bindScopeSelect } from "./state.js";
import { $, basename, clear, dialog, h, reportError } from "./ui.js";

const SUGGESTIONS = [
  "What are my most recent invoices about?",
  "Summarise the documents in this folder",
  "Tidy this folder into sub-folders by topic",
];

const history = [];
let turn = null; // {controller, trace, answer, streamed}

export function openPath(path, reveal = false) {
  call("open_path", { path, reveal }).catch((e) => reportError(e, `Could not open ${basename(path)}`));
}

function scrollToEnd() {
  const log = $("#chat-log");
  log.scrollTop = log.scrollHeight;
}

function sourceChips(sources) {
  if (!sources || !sources.length) return null;
  return h("div.sources", { "aria-label": "Sources", "data-testid": "chat-sources" }, sources.map((s) =>
    h("button.chip", {
      type: "button", title: `${s.path}\nClick to open · Alt+click to show in folder`, "data-testid": "source-chip",
      onclick: (e) => openPath(s.path, e.altKey),
    }, h("span", { "aria-hidden": "true" }, "📄"), h("span.chip-name", {}, s.name || basename(s.path)),
    typeof s.score === "number" ? h("span.chip-score", {}, s.score.toFixed(2)) : null)));
}

function addUserMessage(text) {
  $("#chat-empty").hidden = true;
  $("#chat-log").append(h("div.msg.user", {}, h("div.bubble", {}, text)));
}

function startAssistantMessage() {
  const trace = h("ol.trace", { "aria-label": "What the assistant did", "data-testid": "chat-trace" });
  const answer = h("div.answer.streaming", { "data-testid": "chat-answer" });
  const bubble = h("div.bubble", {}, answer);
  const message = h("div.msg.assistant", {}, trace, bubble);
  $("#chat-log").append(message);
  scrollToEnd();
  return { message, trace, answer, bubble, streamed: "" };
}

function addStep(target, text) {
  target.trace.querySelectorAll("li.live").forEach((li) => li.classList.remove("live"));
  target.trace.append(h("li.live", { "data-testid": "trace-step" }, text));
  scrollToEnd();
}

function stepText(payload) {
  if (typeof payload === "string") return payload;
  return payload.label || payload.step || payload.text || payload.message || payload.title || JSON.stringify(payload);
}

on("agent-step", (payload) => { if (turn) addStep(turn, stepText(payload)); });
on("tool-approval", (payload) => showApproval(turn ? turn.trace : $("#chat-log"), payload));
on("answer-delta", (payload) => {
  if (!turn) return;
  turn.streamed += payload.delta ?? payload.text ?? payload.content ?? "";
  turn.answer.textContent = turn.streamed;
  scrollToEnd();
});

function finishTurn(target, result) {
  target.trace.querySelectorAll("li.live").forEach((li) => li.classList.remove("live"));
  if (!target.trace.children.length) for (const step of result.steps || []) target.trace.append(h("li", {}, step));
  target.answer.classList.remove("streaming");
  clear(target.answer).append(renderMarkdown(result.answer || (result.plan ? "" : "(no answer)")));
  linkifySources(target.answer, result.sources, (path) => openPath(path));
  if (!result.answer && result.plan) target.bubble.hidden = true;
  const chips = sourceChips(result.sources);
  if (chips) target.message.append(chips);
  if (result.plan) target.message.append(planCard(result.plan));
  history.push({ role: "assistant", content: result.answer || (result.plan ? `Proposed a plan: ${result.plan.summary}` : "") });
  scrollToEnd();
}

function setBusy(busy) {
  $("#chat-send").hidden = busy;
  $("#chat-stop").hidden = !busy;
  $("#chat-input").setAttribute("aria-busy", String(busy));
}

async function send(text) {
  if (turn || !text.trim()) return;
  addUserMessage(text);
  history.push({ role: "user", content: text });
  const target = startAssistantMessage();
  turn = Object.assign(target, { controller: new AbortController() });
  setBusy(true);
  try {
    const scope = $("#chat-scope").value || undefined;
    const result = await call("chat_with_assistant", { messages: history.slice(), scope }, { signal: turn.controller.signal });
    finishTurn(target, result);
  } catch (error) {
    target.answer.classList.remove("streaming");
    target.trace.querySelectorAll("li.live").forEach((li) => li.classList.remove("live"));
    if (error.name === "AbortError") {
      target.answer.classList.add("stopped");
      target.answer.textContent = target.streamed ? `${target.streamed}\n\n(stopped)` : "Stopped.";
    } else {
      target.bubble.replaceChildren(h("p.banner.error", { role: "alert" }, error.message));
    }
    history.pop();
  } finally {
    turn = null;
    setBusy(false);
    $("#chat-input").focus();
  }
}

async function clearChat() {
  if (turn) turn.controller.abort();
  const pending = [...pendingPlans.keys()];
  if (pending.length && !(await dialog({ title: "Clear the conversation?", body: `${pending.length} plan(s) waiting for your decision will be discarded.`, ok: "Clear and discard", danger: true }))) return;
  for (const id of pending) {
    try { await call("discard_action_plan", { transaction_id: id }); } catch (e) { reportError(e, "Could not discard a plan"); }
    pendingPlans.delete(id);
  }
  history.length = 0;
  $("#chat-log").replaceChildren($("#chat-empty"));
  $("#chat-empty").hidden = false;
}

function autosize(input) {
  input.style.height = "auto";
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}

export function initChat() {
  const input = $("#chat-input");
  bindScopeSelect($("#chat-scope"));
  $("#chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value;
    input.value = "";
    autosize(input);
    send(text);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("#chat-form").requestSubmit(); }
  });
  input.addEventListener("input", () => autosize(input));
  $("#chat-stop").addEventListener("click", () => turn && turn.controller.abort());
  $("#chat-clear").addEventListener("click", clearChat);
  for (const text of SUGGESTIONS) {
    $("#chat-suggestions").append(h("button.suggestion", { type: "button", onclick: () => { input.value = text; input.focus(); } }, text));
  }
}
