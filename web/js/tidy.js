// The Tidy view: the Gardener's folder-health audit. Per root a health badge and a one-line headline
// (from the background pass's cached report); choose a root to see its findings grouped by kind with
// counts, each group expandable to the evidence (duplicates: pick the copy to keep; the newest is
// preselected) and offering "Propose a fix", which opens the ordinary
// plan card (plan.js): nothing changes until the person approves it, and Undo works as for any plan.
// The sidebar's health dots (one per root) are kept here too, refreshed on `gardener-report`.

import { call, on } from "./api.js";
import { planCard } from "./plan.js";
import { onRoots, showFile } from "./state.js";
import { $, basename, clear, formatNumber, formatTime, h, reportError } from "./ui.js";

const LABELS = {
  duplicate: "Exact duplicates",
  near_duplicate: "Near-duplicates",
  version: "Old versions",
  misplaced: "Misplaced files",
  unhelpful_name: "Unhelpful names",
  stale_large: "Stale large files",
  clutter: "Cluttered folders",
  empty_folder: "Empty folders",
  depth: "Deep folders",
};
const FIXES = {
  duplicate: "Move the older copies to the trash (the newest is kept)",
  near_duplicate: "Move all but the newest to the trash",
  version: "Move the older versions to the trash",
  misplaced: "Move each file to the folder it belongs with",
  unhelpful_name: "Rename from each file's sense",
  stale_large: "Move them to the trash",
  clutter: "Group the loose files into subfolders by kind",
  empty_folder: "Remove the empty folders",
};

let current = null; // the folder whose report is shown

function badge(severity) {
  const label = { warn: "needs care", info: "minor", ok: "healthy", pending: "not checked" }[severity] || severity;
  return h(`span.badge.health-${severity}`, { "data-testid": "health-badge" }, label);
}

async function refreshHealth() {
  let health;
  try { health = await call("gardener_health"); } catch (error) { reportError(error, "Could not read folder health"); return; }
  const list = clear($("#tidy-roots"));
  const dots = clear($("#health-dots"));
  for (const root of health.roots) {
    list.append(h("li.tidy-root", {},
      h("button.btn.link", { type: "button", "data-testid": "tidy-root", onclick: () => analyze(root.path) }, basename(root.path)),
      badge(root.severity), h("span.muted.small.grow", {}, root.path === current ? "" : root.headline),
      root.scanned_at ? h("span.muted.small", {}, formatTime(root.scanned_at)) : null));
    dots.append(h("li", { title: `${root.path}: ${root.headline}` },
      h(`span.health-dot.health-${root.severity}`, { "data-testid": "health-dot" }), basename(root.path)));
  }
  if (!health.roots.length) list.append(h("li.muted", {}, "Add a folder in Folders to check its health."));
}

async function analyze(path) {
  current = path;
  const box = clear($("#tidy-findings"));
  box.append(h("p.muted", {}, `Checking ${path}…`));
  try {
    const report = await call("analyze_directory", { path });
    renderReport(clear(box), report);
    refreshHealth();
  } catch (error) {
    clear(box);
    reportError(error, "Could not check the folder");
  }
}

function renderReport(box, report) {
  box.append(h("div.tidy-head", {}, h("h2", {}, basename(report.path)), badge(report.severity),
    h("span.grow", { "data-testid": "tidy-headline" }, report.headline),
    h("span.muted.small", {}, `${formatNumber(report.files)} indexed files`)));
  if (report.truncated) box.append(h("p.banner.warn", {}, "The folder is larger than the entries cap: empty folders were not checked."));
  for (const note of report.pending || []) box.append(h("p.banner.info", { "data-testid": "tidy-pending" }, note));
  for (const [kind, label] of Object.entries(LABELS)) {
    const group = report.findings.filter((f) => f.kind === kind);
    if (group.length) box.append(groupCard(report.path, kind, label, group));
  }
}

const KEEPS = new Set(["duplicate", "near_duplicate", "version"]); // the person may pick the copy to keep
let groupSeq = 0;

function groupCard(path, kind, label, findings) {
  const plans = h("div.tidy-plans");
  const group = groupSeq++;
  const keep = () => [...plans.parentElement.querySelectorAll("input.tidy-keep:checked")].map((box) => box.value);
  const fix = FIXES[kind]
    ? h("button.btn.small.primary", { type: "button", "data-testid": `tidy-fix-${kind}`, title: FIXES[kind], onclick: () => propose(path, kind, plans, KEEPS.has(kind) ? keep() : []) }, "Propose a fix")
    : h("span.muted.small", {}, "No automatic fix");
  return h("section.card.tidy-group", { "data-testid": `tidy-group-${kind}` },
    h("div.card-head", {}, h("h3", {}, `${label} `, h("span.badge", { "data-testid": "tidy-count" }, String(findings.length))), fix),
    ...findings.map((finding, i) => findingItem(finding, KEEPS.has(kind) ? `keep-${group}-${i}` : null, path)), plans);
}

/** `path` as the person reads it under the checked folder `base` (the full path stays in the tooltip). */
function shown(path, base) {
  for (const sep of ["/", "\\"]) {
    const prefix = base.endsWith(sep) ? base : base + sep;
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  return path;
}

function bytes(n) {
  if (n < 1000) return `${formatNumber(n)} bytes`;
  const [value, unit] = n < 1e6 ? [n / 1e3, "kB"] : n < 1e9 ? [n / 1e6, "MB"] : [n / 1e9, "GB"];
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`;
}

function findingItem(finding, keepName, base) {
  const pick = (e) => (keepName
    ? h("input.tidy-keep", { type: "radio", name: keepName, value: e.path, checked: e.path === finding.keep, title: "Keep this copy", "aria-label": `Keep ${e.path}` })
    : null);
  return h("details.tidy-finding", { "data-testid": "tidy-finding" },
    h("summary", {}, h(`span.health-dot.health-${finding.severity}`), finding.title),
    h("p.small", {}, finding.why),
    h("ul.evidence", {}, ...finding.evidence.map((e) => h("li", {}, pick(e),
      h("button.btn.link.small", { type: "button", title: `${e.path}\nShow details`, onclick: () => showFile(e.path) }, shown(e.path, base)),
      h("span.muted.small", {}, figures(e))))));
}

function figures(e) {
  const parts = [];
  if (e.size !== null && e.size !== undefined) parts.push(bytes(e.size));
  if (e.modified) parts.push(formatTime(e.modified));
  if (e.score !== null && e.score !== undefined) parts.push(`score ${Number(e.score).toFixed(3)}`);
  if (e.note) parts.push(e.note);
  return parts.length ? ` — ${parts.join(" · ")}` : "";
}

async function propose(path, kind, target, keep) {
  try {
    const plan = await call("propose_gardener_fix", { path, kind, keep: keep.length ? keep : undefined });
    clear(target).append(planCard(plan)); // "Check again" re-reads the folder once the plan is settled
  } catch (error) {
    reportError(error, "Could not propose a fix");
  }
}

export function onTidyShown() { refreshHealth(); }

export function initTidy() {
  $("#tidy-refresh").addEventListener("click", () => (current ? analyze(current) : refreshHealth()));
  on("gardener-report", () => refreshHealth());
  onRoots(() => refreshHealth());
}
