// The inline approval card: an MCP tool that is not declared read-only (nor always allowed) waits for the
// person before it runs (DESIGN §2a). The card says what will happen — server, tool, its description
// and the exact arguments (pretty JSON, long values folded) — and offers Allow once / Always allow this
// tool / Deny, with the focus on Deny. Its answer goes to approve_tool_call; the engine's own
// `tool-approval` follow-up (answered elsewhere, or no answer within 5 minutes = denied) closes it too.

import { call, on } from "./api.js";
import { h } from "./ui.js";

const FOLD_CHARS = 160;
const cards = new Map(); // call_id → {card, settle}

const LABELS = {
  once: "✓ Allowed once.",
  always: "✓ Always allowed: this tool will run without asking (Settings → MCP to change).",
  deny: "✗ Denied: the tool did not run; the assistant was told you refused.",
  timed_out: "✗ No answer within 5 minutes, so it was denied; the tool did not run.",
};

/** Arguments as pretty JSON with every long string folded behind a <details>. */
function argumentsView(args) {
  const folded = [];
  const short = JSON.stringify(args ?? {}, (key, value) => {
    if (typeof value === "string" && value.length > FOLD_CHARS) {
      folded.push([key, value]);
      return `${value.slice(0, FOLD_CHARS)}… (${value.length - FOLD_CHARS} more characters, shown below)`;
    }
    return value;
  }, 2);
  return h("div.approval-args", {},
    h("pre.mono.small", { "data-testid": "approval-arguments" }, short),
    folded.map(([key, value]) => h("details", {}, h("summary", {}, `Full value of ${key || "argument"} (${value.length} characters)`), h("pre.mono.small", {}, value))));
}

/** The card for one pending call (`tool-approval` payload); append it where the trace is. */
export function approvalCard(payload) {
  const state = h("p.small.approval-state", { role: "status", "data-testid": "approval-state" });
  const once = h("button.btn", { type: "button", "data-testid": "approval-once" }, "Allow once");
  const always = h("button.btn", { type: "button", "data-testid": "approval-always" }, "Always allow this tool");
  const deny = h("button.btn.danger", { type: "button", "data-testid": "approval-deny" }, "Deny");
  const buttons = h("div.plan-actions", {}, once, always, deny);
  const card = h("li.approval", { "data-testid": "approval-card", "data-call-id": payload.call_id, role: "group", "aria-label": `Approve ${payload.tool}?` },
    h("div.approval-head", {}, h("strong", {}, `🔌 ${payload.server}`), " wants to run ", h("code", {}, payload.tool)),
    payload.description ? h("p.small.muted", {}, payload.description) : null,
    h("p.small", {}, "It can change things SenseTree cannot undo. Nothing runs until you answer."),
    argumentsView(payload.arguments), buttons, state);
  const settle = (decision) => {
    cards.delete(payload.call_id);
    buttons.hidden = true;
    card.classList.add("answered", decision === "once" || decision === "always" ? "allowed" : "denied");
    state.textContent = LABELS[decision] || decision;
  };
  const answer = async (decision) => {
    for (const b of [once, always, deny]) b.disabled = true;
    try {
      await call("approve_tool_call", { call_id: payload.call_id, decision });
      settle(decision);
    } catch (error) {
      if (error.code === "not_found") settle("timed_out");
      else { state.textContent = `Could not send your answer: ${error.message}`; for (const b of [once, always, deny]) b.disabled = false; }
    }
  };
  once.addEventListener("click", () => answer("once"));
  always.addEventListener("click", () => answer("always"));
  deny.addEventListener("click", () => answer("deny"));
  cards.set(payload.call_id, { card, settle });
  queueMicrotask(() => deny.focus());
  return card;
}

/** Show a pending call in `container` (the running turn's trace, or the chat log). */
export function showApproval(container, payload) {
  if (payload.state !== "pending" || cards.has(payload.call_id)) return;
  container.append(approvalCard(payload));
  container.closest(".chat-log, #chat-log")?.scrollTo({ top: 1e9 });
}

on("tool-approval", (payload) => {
  const open = cards.get(payload.call_id);
  if (open && payload.state && payload.state !== "pending") open.settle(payload.state);
});
