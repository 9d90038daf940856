// The Action Plan card: what the agent proposes, shown before anything moves. A Before → After tree of
// the affected folders (read from disk, then the ticked operations simulated on it), one line per
// operation with a checkbox, Approve / Discard, the outcome (applied count, or the error and the
// rollback report step by step) and Undo once committed. Only the ticked operations are sent.

import { call } from "./api.js";
import { basename, clear, dirname, h, reportError, separator, toast } from "./ui.js";

/** transaction_id → card, for plans still waiting for a decision (the chat discards them on Clear). */
export const pendingPlans = new Map();

function entryInfo(entry, folder) {
  if (typeof entry === "string") {
    const m = entry.match(/^\[(D|F)\]\s*(.*)$/);
    const path = m ? m[2] : entry;
    return { path: path.startsWith("/") || /^[A-Za-z]:\\/.test(path) ? path : join(folder, path), isDir: m ? m[1] === "D" : false };
  }
  const path = entry.path || join(folder, entry.name);
  const isDir = Boolean(entry.is_dir ?? entry.dir) || ["dir", "directory", "folder", "D"].includes(entry.kind || entry.type);
  return { path, isDir };
}

function join(folder, name) {
  const sep = separator(folder);
  return folder.endsWith(sep) ? folder + name : folder + sep + name;
}

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
      const listing = await call("list_directory", { path: folder });
      entries = Array.isArray(listing) ? listing : listing?.entries || [];
      tree.set(folder, true);
    } catch { /* a folder the plan creates does not exist yet */ }
    for (const entry of entries) {
      const { path, isDir } = entryInfo(entry, folder);
      tree.set(path, isDir);
    }
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
  const box = h("input", { type: "checkbox", checked: true, "aria-label": `Include ${op.kind} ${paths}`, "data-testid": "plan-op-checkbox" });
  const line = h("li.op", { "data-testid": "plan-op" },
    box, h("span", { class: `op-kind ${op.kind}` }, op.kind),
    h("div.op-body", {}, h("div.op-paths", { title: full }, paths),
      op.new_summary ? h("div.op-reason", {}, `New sense: ${op.new_summary}`) : null,
      op.reason ? h("div.op-reason", {}, op.reason) : null));
  box.addEventListener("change", () => { line.classList.toggle("off", !box.checked); onToggle(index, box.checked); });
  return line;
}

function describeStep(step) {
  if (typeof step === "string") return step;
  return step.description || step.message || step.step || JSON.stringify(step);
}

function renderOutcome(target, result, { undone = false } = {}) {
  const rollback = result.rollback || [];
  const failed = rollback.length > 0 || result.ok === false || (result.applied === 0 && /fail|error|rolled/i.test(result.message || ""));
  const text = undone ? `Undone. ${result.message || ""}` : failed ? result.message || "The plan failed and was rolled back."
    : /^applied/i.test(result.message || "") ? result.message
    : `Applied ${result.applied} operation${result.applied === 1 ? "" : "s"}. ${result.message || ""}`;
  clear(target).append(h(`p.banner.${failed ? "error" : "ok"}`, { role: "status", "data-testid": "plan-result" }, text.trim()));
  if (rollback.length) {
    target.append(h("p.small", {}, "Rollback, step by step:"), h("ol.rollback", {}, rollback.map((s) => h("li", {}, describeStep(s)))));
  }
  return !failed;
}

/** The card for a freshly proposed plan. */
export function planCard(plan) {
  const ops = plan.operations || [];
  const selected = ops.map(() => true);
  const root = commonFolder(affectedFolders(ops));
  const diff = h("div.tree-diff", { "aria-label": "Before and after" }, h("p.muted.small", {}, "Reading the affected folders…"));
  const outcome = h("div.plan-outcome");
  const approve = h("button.btn.primary", { type: "button", "data-testid": "plan-approve" }, `Approve ${ops.length}`);
  const discard = h("button.btn", { type: "button", "data-testid": "plan-discard" }, "Discard");
  const undo = h("button.btn", { type: "button", hidden: true, "data-testid": "plan-undo" }, "Undo");
  const status = h("span.badge.draft", { "data-testid": "plan-status" }, "draft");
  const opsList = h("ul.ops", { "aria-label": "Operations" });
  const card = h("article.plan", { "data-testid": "plan-card", "aria-label": "Action plan" },
    h("div.plan-head", {}, h("div.plan-title", {}, h("h3", {}, "🛠️ Action plan"), status)),
    h("p.plan-summary", {}, plan.summary || ""), diff, h("p.muted.small", {}, `Paths are relative to ${root}. Untick what you do not want.`), opsList, outcome, h("div.plan-actions", {}, approve, discard, undo));
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
  ops.forEach((op, i) => opsList.append(opLine(op, i, root, (index, on) => { selected[index] = on; redraw(); })));
  readBefore(ops).then((tree) => { before = tree; redraw(); }).catch((e) => reportError(e, "Could not read the folders"));
  redraw();
  const settle = (label) => {
    pendingPlans.delete(plan.transaction_id);
    status.textContent = label; status.className = `badge ${label.replace(" ", "_")}`;
    approve.hidden = true; discard.hidden = true;
    opsList.querySelectorAll("input").forEach((box) => { box.disabled = true; });
  };
  approve.addEventListener("click", async () => {
    approve.disabled = true; discard.disabled = true;
    const all = chosen().length === ops.length;
    try {
      const result = await call("apply_action_plan", { transaction_id: plan.transaction_id, operations: all ? undefined : chosen() });
      const committed = renderOutcome(outcome, result);
      settle(committed ? "committed" : "rolled back");
      undo.hidden = !committed;
    } catch (error) {
      renderOutcome(outcome, { message: error.message, rollback: error.rollback || [] });
      approve.disabled = false; discard.disabled = false;
    }
  });
  discard.addEventListener("click", async () => {
    try { await call("discard_action_plan", { transaction_id: plan.transaction_id }); settle("discarded"); }
    catch (error) { reportError(error, "Could not discard the plan"); }
  });
  undo.addEventListener("click", async () => {
    undo.disabled = true;
    try { renderOutcome(outcome, await call("undo_transaction", { transaction_id: plan.transaction_id }), { undone: true }); settle("undone"); undo.hidden = true; toast("The plan was undone."); }
    catch (error) { undo.disabled = false; reportError(error, "Could not undo"); }
  });
  pendingPlans.set(plan.transaction_id, card);
  return card;
}
