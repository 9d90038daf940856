// Settings → History: every plan and what became of it. A plan waiting for a decision is never
// orphaned: each draft has Review, which opens the same plan card as the chat (Before → After,
// checkboxes, Approve, Discard) — a draft whose approval was refused is marked and its reason shown.
// Drafts older than 30 days are listed as expired (the engine never applies them). A committed plan
// has Undo; a rollback that did not finish has Retry rollback. Outcomes render with plan.js's renderer.

import { call } from "./api.js";
import { planCard, refusalReasons, runOutcome } from "./plan.js";
import { clear, formatTime, h, reportError } from "./ui.js";

const STATUS_LABELS = { rolled_back: "rolled back", rollback_incomplete: "rollback incomplete" };

function badge(status, label = STATUS_LABELS[status] || status) {
  return h(`span.badge.${status}`, { "data-testid": "history-status" }, label);
}

/** Why an approval was refused: its intro, then each reason on its own line (as the plan card lists them). */
function refusalNote(message) {
  const { intro, reasons } = refusalReasons(message);
  return h("div.small.error-text", { "data-testid": "history-refusal" }, `Approval refused${intro ? `: ${intro}` : ":"}`,
    h("ul.reasons", {}, reasons.map((r) => h("li", {}, r))));
}

function actionButton(label, testid, onclick) {
  return h("button.btn.small", { type: "button", "data-testid": testid, onclick }, label);
}

function historyItem(t, onChange) {
  const outcome = h("div.history-outcome");
  // an undo's own row reads "undid · <the plan>", not "committed · Undo: <the plan>"
  const undid = t.undo_of && t.status === "committed";
  let status = undid ? badge(t.status, "undid") : badge(t.status);
  const setStatus = (label) => { const next = badge(label); status.replaceWith(next); status = next; };
  const item = h("li.history-item", { "data-testid": "history-item", "data-transaction-id": t.transaction_id });
  const marks = t.refused ? h("span.badge.refused", { "data-testid": "history-refused", title: t.message || "" }, "refused") : null;
  const run = async (button, options, success, label) => {
    button.disabled = true;
    const { state } = await runOutcome(outcome, "undo_transaction", { transaction_id: t.transaction_id }, options);
    button.disabled = false;
    if (state === success) { button.hidden = true; setStatus(label); }
    if (state !== "refused") onChange();
  };
  let action = null;
  if (t.status === "draft") {
    action = actionButton("Review", "history-review", () => {
      action.hidden = true;
      const plan = { transaction_id: t.transaction_id, summary: t.summary, operations: t.operations || [] };
      outcome.replaceChildren(planCard(plan, { refused: t.refused ? t.message : null, onSettle: (label) => { setStatus(label); onChange(); } }));
    });
  } else if (t.status === "committed" && !t.undo_of) {
    action = actionButton("Undo", "history-undo", () => run(action, { undo: true }, "committed", "undone"));
  } else if (t.status === "rollback_incomplete") {
    action = actionButton("Retry rollback", "history-retry", () => run(action, { retry: true }, "rolled_back", "rolled_back"));
  }
  const note = t.message && t.status !== "draft" ? h("div.small.muted", {}, t.message) : null;
  const refusedNote = t.refused ? refusalNote(t.message) : null;
  const summary = undid ? (t.summary || "").replace(/^Undo: /, "") : t.summary;
  item.append(h("div.history-row", {}, status, marks, h("span.grow", {}, summary || t.transaction_id, note, refusedNote),
    h("span.muted.small", {}, formatTime(t.committed_at || t.created_at)), action), outcome);
  return item;
}

/** Fill #history-list; `onChange` runs after something in it changed the disk (e.g. to refresh Trash). */
export async function renderHistory(onChange = () => {}) {
  const list = clear(document.querySelector("#history-list"));
  try {
    const txns = await call("list_transactions");
    if (!txns.length) list.append(h("li.muted", {}, "No plans yet."));
    for (const t of txns) list.append(historyItem(t, onChange));
  } catch (error) { reportError(error, "Could not read the history"); }
}
