// The Action Plan card: what the agent proposes, shown before anything moves. A Before → After tree of
// the affected folders (read from disk, then the ticked operations simulated on it), one line per
// operation with a checkbox, Approve / Discard, the outcome (applied count, or the error and the
// rollback report step by step) and Undo once committed. Only the ticked operations are sent.
// An approval the engine refuses (the draft no longer holds) looks refused: red, the reasons as a list,
// never "Applied", and the card offers "Ask for a new plan" and "Discard". History opens the same card.

import { call } from "./api.js";
import { basename, clear, dirname, h, reportError, separator, toast } from "./ui.js";

/** transaction_id → card, for plans still waiting for a decision (the chat discards them on Clear). */
export const pendingPlans = new Map();

function isUnder(path, folder) {
  const sep = separator(folder);
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function affectedFolders(operations) {
  const folders = new Set();
  for (const op of operations) {
    for (const p of [op.old_path, op.new_path]) if (p) folders.add(dirname(p));
  }
  return [...folders];
}

async function readBefore(operations) {
  const tree = new Map();
  for (const folder of affectedFolders(operations)) {
    let entries = [];
    try {
      entries = await call("list_directory", { path: folder }); // Entry objects with exact paths
      tree.set(folder, true);
    } catch { /* a folder the plan creates does not exist yet */ }
    for (const entry of entries) tree.set(entry.path, entry.is_dir);
  }
  for (const op of operations) if (op.old_path && !tree.has(op.old_path)) tree.set(op.old_path, false);
  return tree;
}

function simulate(before, operations) {
  const after = new Map(before);
  for (const op of operations) {
    if (op.kind === "mkdir") after.set(op.new_path, true);
    if (op.kind === "move" || op.kind === "rename" || op.kind === "delete") {
      for (const [path, isDir] of [...after]) {
        if (!isUnder(path, op.old_path)) continue;
        after.delete(path);
        if (op.kind !== "delete") after.set(op.new_path + path.slice(op.old_path.length), isDir);
      }
    }
  }
  return after;
}

function commonFolder(paths) {
  if (!paths.length) return "/";
  let common = paths[0];
  while (!paths.every((p) => isUnder(p, common)) && common !== dirname(common)) common = dirname(common);
  return common;
}

function renderTree(tree, other, root, changedClass, limit = 10) {
  const children = new Map();
  for (const path of tree.keys()) {
    if (path === root || !isUnder(path, root)) continue;
    const parent = dirname(path);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(path);
  }
  const build = (folder) => {
    const kids = (children.get(folder) || []).sort((a, b) => (tree.get(b) - tree.get(a)) || a.localeCompare(b));
    const changed = kids.filter((k) => !other.has(k) || children.has(k));
    const shown = [...new Set([...changed, ...kids])].slice(0, Math.max(limit, changed.length));
    const list = h("ul.tree", { role: "group" });
    for (const path of shown) {
      const cls = other.has(path) || chain.has(path) ? "" : changedClass;
      const label = `${tree.get(path) ? "📁" : "📄"} ${basename(path)}`;
      list.append(h("li", { role: "treeitem", class: cls || null, title: path }, label, children.has(path) ? build(path) : null));
    }
    if (kids.length > shown.length) list.append(h("li.more", {}, `… ${kids.length - shown.length} more`));
    return list;
  };
  // Folders between the common root and the affected ones are not listed; make them appear as a chain.
  const chain = new Set();
  for (const path of [...tree.keys()]) {
    for (let p = dirname(path); isUnder(p, root) && p !== root; p = dirname(p)) {
      if (!children.has(dirname(p))) children.set(dirname(p), []);
      if (!children.get(dirname(p)).includes(p)) { children.get(dirname(p)).push(p); if (!tree.has(p)) { tree.set(p, true); chain.add(p); } }
    }
  }
  return h("div", {}, h("div.mono.small.muted", { title: root }, `📁 ${root}`), build(root));
}

function relative(path, root) {
  if (!path) return "";
  const sep = separator(root);
  return isUnder(path, root) && path !== root ? path.slice(root.length + (root.endsWith(sep) ? 0 : 1)) : path;
}

function opLine(op, index, root, onToggle) {
  const rel = (p) => relative(p, root);
  const paths = op.kind === "mkdir" ? rel(op.new_path)
    : op.kind === "delete" || op.kind === "requalify" ? rel(op.old_path)
    : `${rel(op.old_path)} → ${rel(op.new_path)}`;
  const full = [op.old_path, op.new_path].filter(Boolean).join(" → ");
  const ticked = op.ticked !== false; // a Gardener fix leaves its low-confidence lines unticked
  const box = h("input", { type: "checkbox", checked: ticked, "aria-label": `Include ${op.kind} ${paths}`, "data-testid": "plan-op-checkbox" });
  const line = h(ticked ? "li.op" : "li.op.off", { "data-testid": "plan-op" },
    box, h("span", { class: `op-kind ${op.kind}` }, op.kind),
    h("div.op-body", {}, h("div.op-paths", { title: full }, paths),
      op.new_summary ? h("div.op-reason", {}, `New sense: ${op.new_summary}`) : null,
      op.reason ? h("div.op-reason", {}, op.reason) : null));
  box.addEventListener("change", () => { line.classList.toggle("off", !box.checked); onToggle(index, box.checked); });
  return line;
}

function describeStep(step) {
  if (typeof step === "string") return step;
  const text = step.description || step.message || step.step || JSON.stringify(step);
  return step.ok === false ? `✗ ${text}${step.error ? `: ${step.error}` : ""}` : step.ok === true ? `✓ ${text}` : text;
}

/** "Intro:\n- a\n- b" → {intro, reasons: [a, b]}; a message without a list is its own single reason. */
export function refusalReasons(message) {
  const [intro, ...items] = String(message || "").split(/\n\s*-\s+/);
  return items.length ? { intro: intro.trim(), reasons: items.map((r) => r.trim()).filter(Boolean) } : { intro: "", reasons: [intro.trim()].filter(Boolean) };
}

/**
 * Every outcome shape of apply_action_plan / undo_transaction, rendered as what it is:
 * - done: {applied: n ≥ 1, message} → green, the engine's message ("Applied 2 operations; …", "Undid …");
 * - failed and rolled back: {applied: 0, message, rollback: [step]} → red, the message and each undo step;
 * - refused before anything moved (the command failed: a source changed, the plan no longer holds, an
 *   expired draft): {refused: true, code, message} → red, "Nothing was changed", the reasons as a list;
 * - a retried rollback (`retry`): {applied: 0, message, rollback} → green when every step is now ok.
 * Returns "committed" | "rolled_back" | "rollback_incomplete" | "refused".
 */
export function renderOutcome(target, result, { undo = false, retry = false } = {}) {
  const rollback = result.rollback || [];
  clear(target);
  if (result.refused) {
    const { intro, reasons } = refusalReasons(result.message);
    const heading = undo ? "The plan was not undone; nothing was changed." : "The plan was not applied; nothing was changed.";
    target.append(h("div.banner.error", { role: "alert", "data-testid": "plan-result" },
      h("strong", {}, heading), intro ? h("p.small", {}, intro) : null,
      h("ul.reasons", { "data-testid": "plan-reasons" }, reasons.map((r) => h("li", {}, r)))));
    return "refused";
  }
  if (retry) {
    const incomplete = rollback.some((step) => step.ok === false);
    target.append(h(`p.banner.${incomplete ? "error" : "ok"}`, { role: incomplete ? "alert" : "status", "data-testid": "plan-result" }, result.message || ""));
    if (rollback.length) target.append(h("ol.rollback", { "data-testid": "plan-rollback" }, rollback.map((s) => h("li", { class: s.ok === false ? "failed" : null }, describeStep(s)))));
    return incomplete ? "rollback_incomplete" : "rolled_back";
  }
  const failed = rollback.length > 0 || !(result.applied > 0);
  const fallback = failed ? "The plan failed and was rolled back." : `${undo ? "Undid" : "Applied"} ${result.applied} operation${result.applied === 1 ? "" : "s"}.`;
  target.append(h(`p.banner.${failed ? "error" : "ok"}`, { role: failed ? "alert" : "status", "data-testid": "plan-result" }, (result.message || fallback).trim()));
  if (rollback.length) {
    target.append(h("p.small", {}, "Rollback, step by step:"), h("ol.rollback", { "data-testid": "plan-rollback" }, rollback.map((s) => h("li", { class: s.ok === false ? "failed" : null }, describeStep(s)))));
  }
  return failed ? "rolled_back" : "committed";
}

/** Run apply/undo and render its outcome; a refusing command becomes a refused outcome, never a throw. */
export async function runOutcome(target, command, args, options = {}) {
  let result;
  try { result = await call(command, args); }
  catch (error) { result = { refused: true, code: error.code, message: error.message }; }
  return { state: renderOutcome(target, result, options), result };
}

function askForNewPlan(plan, message) {
  const input = document.querySelector("#chat-input");
  const form = document.querySelector("#chat-form");
  if (!input || !form) return;
  document.querySelector('.nav-item[data-view="chat"]')?.click();
  input.value = `The plan “${plan.summary || plan.transaction_id}” could not be applied: ${message} Please look at the folders again and propose a new plan.`;
  form.requestSubmit();
}

/**
 * The card for a plan: freshly proposed in the chat, or a draft reviewed from History (`refused` carries
 * the reason a previous approval was refused; `onSettle(label)` hears the card's final state).
 */
export function planCard(plan, { refused = null, onSettle = null } = {}) {
  const ops = plan.operations || [];
  const selected = ops.map((op) => op.ticked !== false);
  const root = commonFolder(affectedFolders(ops));
  const diff = h("div.tree-diff", { "aria-label": "Before and after" }, h("p.muted.small", {}, "Reading the affected folders…"));
  const outcome = h("div.plan-outcome");
  const approve = h("button.btn.primary", { type: "button", "data-testid": "plan-approve" }, `Approve ${ops.length}`);
  const discard = h("button.btn", { type: "button", "data-testid": "plan-discard" }, "Discard");
  const undo = h("button.btn", { type: "button", hidden: true, "data-testid": "plan-undo" }, "Undo");
  const askAgain = h("button.btn", { type: "button", hidden: true, "data-testid": "plan-ask-again" }, "Ask for a new plan");
  const status = h("span.badge.draft", { "data-testid": "plan-status" }, "draft");
  const opsList = h("ul.ops", { "aria-label": "Operations" });
  const card = h("article.plan", { "data-testid": "plan-card", "aria-label": "Action plan" },
    h("div.plan-head", {}, h("div.plan-title", {}, h("h3", {}, "🛠️ Action plan"), status)),
    h("p.plan-summary", {}, plan.summary || ""), diff, h("p.muted.small", {}, `Paths are relative to ${root}. Untick what you do not want.`), opsList, outcome, h("div.plan-actions", {}, approve, askAgain, discard, undo));
  let before = null;
  const chosen = () => ops.filter((_, i) => selected[i]);
  const redraw = () => {
    approve.textContent = `Approve ${chosen().length}`;
    approve.disabled = chosen().length === 0;
    if (!before) return;
    const after = simulate(before, chosen());
    clear(diff).append(
      h("div.tree-pane", {}, h("h3", {}, "Before"), renderTree(new Map(before), after, root, "removed")),
      h("span.tree-arrow", { "aria-hidden": "true" }, "→"),
      h("div.tree-pane", {}, h("h3", {}, "After"), renderTree(after, before, root, "added")));
  };
  ops.forEach((op, i) => {
    if (op.ticked === false && (i === 0 || ops[i - 1].ticked !== false)) {
      opsList.append(h("li.op-group.muted.small", { "data-testid": "plan-unticked-heading" }, "Left unticked — less certain; each line says why:"));
    }
    opsList.append(opLine(op, i, root, (index, on) => { selected[index] = on; redraw(); }));
  });
  readBefore(ops).then((tree) => { before = tree; redraw(); }).catch((e) => reportError(e, "Could not read the folders"));
  redraw();
  const setStatus = (label) => { status.textContent = label.replace("_", " "); status.className = `badge ${label}`; };
  const settle = (label) => {
    pendingPlans.delete(plan.transaction_id);
    setStatus(label);
    approve.hidden = true; discard.hidden = true; askAgain.hidden = true;
    opsList.querySelectorAll("input").forEach((box) => { box.disabled = true; });
    if (onSettle) onSettle(label);
  };
  let refusal = "";
  const showRefused = (message) => {
    refusal = message;
    setStatus("refused");
    card.classList.add("refused");
    approve.hidden = true; askAgain.hidden = false;
    approve.disabled = false; discard.disabled = false;
  };
  if (refused) {
    showRefused(refused);
    renderOutcome(outcome, { refused: true, message: refused });
    approve.hidden = false; // from History: the person may try again once the reason is gone
  }
  approve.addEventListener("click", async () => {
    approve.disabled = true; discard.disabled = true;
    const all = chosen().length === ops.length;
    const args = { transaction_id: plan.transaction_id, operations: all ? undefined : chosen() };
    const { state, result } = await runOutcome(outcome, "apply_action_plan", args);
    if (state === "refused") { showRefused(result.message); return; }
    settle(state);
    undo.hidden = state !== "committed";
  });
  askAgain.addEventListener("click", () => askForNewPlan(plan, refusal));
  discard.addEventListener("click", async () => {
    try { await call("discard_action_plan", { transaction_id: plan.transaction_id }); settle("discarded"); }
    catch (error) { reportError(error, "Could not discard the plan"); }
  });
  undo.addEventListener("click", async () => {
    undo.disabled = true;
    const { state } = await runOutcome(outcome, "undo_transaction", { transaction_id: plan.transaction_id }, { undo: true });
    if (state === "committed") { settle("undone"); undo.hidden = true; toast("The plan was undone."); }
    else undo.disabled = state === "rolled_back";
  });
  pendingPlans.set(plan.transaction_id, card);
  return card;
}
