// One turn of the chat log as DOM: the person's message (with Edit), the assistant's trace (every step
// expandable to its arguments and its truncated result), the answer (Markdown, Copy, Regenerate on the
// last one), the source chips and an Action Plan card. Errors look like errors and link to the
// Settings section where they are fixed. chat.js drives it; nothing here calls the engine except to
// open a file.

import { call } from "./api.js";
import { copyButton, linkifySources, renderMarkdown, setFileOpener } from "./markdown.js";
import { planCard } from "./plan.js";
import { pageLabel, thumbFor } from "./thumbs.js";
import { basename, clear, fill, folderHints, h, reportError } from "./ui.js";

export const MAX_CHIPS = 5; // engine/agent/sources.py decides which sources; the page shows 5 of them

export function openPath(path, reveal = false) {
  call("open_path", { path, reveal }).catch((e) => reportError(e, `Could not open ${basename(path)}`));
}
setFileOpener((path) => openPath(path));

const SETTINGS_FOR = { endpoint: ["set-reasoning", "Reasoning model"], model: ["set-reasoning", "Reasoning model"],
  no_endpoint: ["set-reasoning", "Reasoning model"], mcp: ["set-mcp", "MCP servers"], embedding: ["set-embedding", "Embedding"] };

/** Open Settings at a section (the sidebar button does the navigation, so app.js stays the router). */
export function openSettings(section) {
  document.querySelector('.nav-item[data-view="settings"]').click();
  requestAnimationFrame(() => {
    const target = document.getElementById(section);
    if (target) { target.scrollIntoView({ block: "start" }); target.classList.add("flash"); setTimeout(() => target.classList.remove("flash"), 1600); }
  });
}

function settingsLink(code) {
  const [section, label] = SETTINGS_FOR[code] || SETTINGS_FOR.endpoint;
  return h("button.btn.small", { type: "button", "data-testid": "error-settings", onclick: () => openSettings(section) }, `Open Settings → ${label}`);
}

export function errorBanner(message, code) {
  return h("div.banner.error.chat-error", { role: "alert", "data-testid": "chat-error" },
    h("p", {}, h("strong", {}, "⚠ "), message), settingsLink(code));
}

// ---- the person's message ---------------------------------------------------------------------
export function userMessage(text, { onEdit } = {}) {
  const bubble = h("div.bubble", {}, text);
  const actions = h("div.msg-actions", {}, onEdit ? h("button.btn.small.ghost", { type: "button", "data-testid": "edit-message", title: "Edit and send again", onclick: () => onEdit() }, "Edit") : null);
  return h("div.msg.user", { "data-testid": "user-message" }, bubble, actions);
}

/** Replace a user bubble by an editor; resolves to the new text, or null when cancelled. */
export function editInPlace(element, text) {
  return new Promise((resolve) => {
    const area = h("textarea.edit-area", { rows: Math.min(8, text.split("\n").length + 1), "aria-label": "Edit your message", "data-testid": "edit-input" });
    area.value = text;
    const done = (value) => { editor.replaceWith(...saved); resolve(value); };
    const editor = h("div.edit-box", {}, area, h("div.row", {},
      h("button.btn.small.primary", { type: "button", "data-testid": "edit-send", onclick: () => done(area.value.trim() ? area.value : null) }, "Send"),
      h("button.btn.small", { type: "button", onclick: () => done(null) }, "Cancel")));
    const saved = [...element.children];
    element.replaceChildren(editor);
    area.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.stopPropagation(); done(null); }
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); done(area.value.trim() ? area.value : null); }
    });
    area.focus();
  });
}

// ---- the trace --------------------------------------------------------------------------------
function pretty(value) {
  try { return JSON.stringify(value ?? {}, null, 2); } catch { return String(value); }
}

export function traceStep(step) {
  const failed = Boolean(step.error);
  const details = h("details.step", {},
    h("summary", { "data-testid": "trace-summary" }, step.label || step.tool,
      failed ? h("span.badge.error", {}, step.result && step.result.startsWith("Refused") ? "refused" : "error") : null),
    h("div.step-body", { "data-testid": "trace-details" },
      h("div.step-label", {}, "Tool"), h("code", {}, step.tool || "?"),
      h("div.step-label", {}, "Arguments"), h("pre.step-pre", { "data-testid": "trace-args" }, pretty(step.arguments)),
      step.result !== null && step.result !== undefined
        ? [h("div.step-label", {}, "Result"), h("pre.step-pre", { "data-testid": "trace-result" }, step.result)] : null,
      failed && String(step.tool || "").startsWith("mcp__") ? settingsLink("mcp") : null));
  return h(`li.trace-step${failed ? ".failed" : ""}`, { "data-testid": "trace-step" }, details);
}

export function renderTrace(list, trace) {
  clear(list);
  for (const step of trace || []) list.append(traceStep(step));
  list.hidden = !list.children.length;
}

// ---- sources ----------------------------------------------------------------------------------
function sourceChip(source, folder) {
  const tip = h("span.chip-tip", { role: "tooltip" }, h("strong", {}, source.name || basename(source.path)),
    h("span.mono.small", {}, source.path), source.snippet ? h("span.chip-snippet", {}, source.snippet) : null);
  const button = h("button.chip", {
    type: "button", "data-testid": "source-chip", "data-score": source.score, "data-used": source.used ? "true" : "false",
    "aria-label": `Open ${source.name || basename(source.path)}${source.snippet ? ": " + source.snippet.slice(0, 120) : ""}`,
    onclick: (e) => openPath(source.path, e.altKey),
  }, thumbFor(source.path, "chip-thumb") || h("span", { "aria-hidden": "true" }, source.used ? "📄" : "🔎"), h("span.chip-name", {}, source.name || basename(source.path)),
  pageLabel(source), folder ? h("span.chip-folder", { "data-testid": "chip-folder" }, folder) : null,
  typeof source.score === "number" ? h("span.chip-score", {}, source.score.toFixed(2)) : null);
  return h("span.chip-wrap", {}, button, tip);
}

export function sourceChips(sources) {
  if (!sources || !sources.length) return null;
  const sorted = [...sources].sort((a, b) => (b.score || 0) - (a.score || 0));
  const folders = folderHints(sorted.map((s) => s.path)); // same-named files show where they are
  const chip = (source) => sourceChip(source, folders.get(source.path));
  const box = h("div.sources", { "aria-label": "Sources", "data-testid": "chat-sources" }, sorted.slice(0, MAX_CHIPS).map(chip));
  const rest = sorted.slice(MAX_CHIPS);
  if (rest.length) {
    const more = h("button.chip.more", { type: "button", "data-testid": "sources-more", "aria-expanded": "false" }, `${rest.length} more`);
    const hidden = h("div.sources.extra", { hidden: true, "data-testid": "sources-extra" }, rest.map(chip));
    more.addEventListener("click", () => { hidden.hidden = !hidden.hidden; more.setAttribute("aria-expanded", String(!hidden.hidden)); more.textContent = hidden.hidden ? `${rest.length} more` : "Fewer"; });
    box.append(more);
    return h("div.sources-box", {}, box, hidden);
  }
  return box;
}

// ---- the assistant's message ------------------------------------------------------------------
export function assistantMessage() {
  const trace = h("ol.trace", { "aria-label": "What the assistant did", "data-testid": "chat-trace" });
  const answer = h("div.answer", { "data-testid": "chat-answer" });
  const bubble = h("div.bubble", {}, answer);
  const actions = h("div.msg-actions");
  const element = h("div.msg.assistant", { "data-testid": "assistant-message" }, trace, bubble, actions);
  return { element, trace, answer, bubble, actions, streamed: "" };
}

export function liveStep(target, label) {
  target.trace.hidden = false;
  target.trace.querySelectorAll("li.live").forEach((li) => li.classList.remove("live"));
  target.trace.append(h("li.live.trace-step", { "data-testid": "trace-step" }, h("span.step-live", {}, label)));
}

export function renderStreaming(target) {
  target.bubble.hidden = false;
  target.answer.classList.add("streaming");
  clear(target.answer).append(renderMarkdown(target.streamed, { partial: true }));
}

/** Fill a message with a finished turn (live or from storage). */
export function finishMessage(target, turn, { isLast, onRegenerate, planStatus } = {}) {
  const approvals = [...target.trace.querySelectorAll(":scope > li.approval")]; // the person's answers stay on view
  renderTrace(target.trace, turn.trace);
  if (approvals.length) { target.trace.append(...approvals); target.trace.hidden = false; }
  target.answer.classList.remove("streaming");
  target.element.querySelectorAll(".sources, .sources-box, .plan, .plan-line, .chat-error").forEach((el) => el.remove());
  const text = turn.answer || "";
  const running = turn.status === "running"; // still answering in the engine (the page was reloaded)
  clear(target.answer).append(renderMarkdown(text || (turn.plan || turn.error || running ? "" : "(no answer)")));
  linkifySources(target.answer, turn.sources, (path) => openPath(path));
  if (turn.stopped) target.answer.append(h("p.stopped-note", { "data-testid": "stopped-note" }, "■ Stopped"));
  target.bubble.hidden = !text && !turn.stopped && Boolean(turn.plan || turn.error || running);
  if (turn.error) {
    target.bubble.hidden = true;
    target.bubble.after(errorBanner(turn.error.message || text, turn.error.code));
  }
  const chips = sourceChips(turn.sources);
  if (chips) target.actions.before(chips);
  if (turn.plan) {
    const status = planStatus ? planStatus(turn.plan.transaction_id) : "draft";
    target.actions.before(status === "draft" ? planCard(turn.plan)
      : h("p.plan-line.muted", {}, `🛠️ Action plan: ${turn.plan.summary || ""} `, h(`span.badge.${status}`, {}, status)));
  }
  fill(target.actions,
    text ? copyButton(() => text, "Copy") : null,
    isLast && onRegenerate ? h("button.btn.small.ghost", { type: "button", "data-testid": "regenerate", title: "Answer this question again", onclick: onRegenerate }, "Regenerate") : null,
    turn.model ? h("span.muted.small.msg-model", {}, turn.model) : null);
  target.actions.querySelector(".copy")?.setAttribute("data-testid", "copy-answer");
}

