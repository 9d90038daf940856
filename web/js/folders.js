// Folders & indexing: the roots (native picker in the window, a path field in a browser), live progress
// from indexing-progress events, a small browser over the indexed folders (a file's details are in
// details.js), failed files with their reasons and Retry, the queue, and Pause / Resume.

import { call, mode } from "./api.js";
import { showDetails } from "./details.js";
import { onRoots, onShowFile, onStats, refreshRoots, refreshStats, setRoots, showFile, state, useScope } from "./state.js";
import { $, basename, clear, dialog, dirname, formatNumber, h, pathLabel, reportError, toast } from "./ui.js";

const STAT_LABELS = [["files", "Files"], ["chunks", "Chunks"], ["queued", "Queued"], ["done", "Done"], ["failed", "Failed"], ["skipped", "Skipped"]];
let browsing = null;

export function progressOf(stats) {
  const processed = (stats.done || 0) + (stats.failed || 0) + (stats.skipped || 0);
  const total = processed + (stats.queued || 0);
  const pct = total ? Math.round((processed / total) * 100) : state.roots.length ? 100 : 0;
  let label = "Up to date";
  if (stats.paused) label = stats.queued ? `Paused · ${formatNumber(stats.queued)} waiting` : "Paused";
  else if (stats.queued) label = `Indexing… ${formatNumber(stats.queued)} left`;
  else if (!state.roots.length) label = "Add a folder to start";
  return { pct, label, busy: Boolean(stats.queued) && !stats.paused };
}

function renderStats(stats) {
  const { pct, label, busy } = progressOf(stats);
  for (const [barId, labelId] of [["#index-bar", "#index-state"], ["#mini-bar", "#mini-label"]]) {
    $(barId).style.width = `${pct}%`;
    $(barId).parentElement.setAttribute("aria-valuenow", String(pct));
    $(barId).parentElement.classList.toggle("busy", busy);
    $(labelId).textContent = label;
  }
  $("#mini-counts").textContent = `${formatNumber(stats.files)} files · ${formatNumber(stats.chunks)} chunks${stats.failed ? ` · ${stats.failed} failed` : ""}`;
  clear($("#index-stats")).append(...STAT_LABELS.map(([key, name]) => h("div", {}, h("dt", {}, name), h("dd", { "data-stat": key }, formatNumber(stats[key])))));
  $("#index-pause").textContent = stats.paused ? "Resume indexing" : "Pause indexing";
  $("#index-pause").setAttribute("aria-pressed", String(Boolean(stats.paused)));
  if (!$("#view-folders").hidden) refreshQueue();
}

function renderRoots(roots) {
  const list = clear($("#root-list"));
  if (!roots.length) list.append(h("li.muted", {}, "No folders yet. Add one to start indexing."));
  for (const root of roots) {
    list.append(h("li", { "data-testid": "root-item" }, h("span", { "aria-hidden": "true" }, "📁"), pathLabel(root),
      h("button.btn.small", { type: "button", onclick: () => browse(root) }, "Browse"),
      h("button.btn.small.danger-outline", { type: "button", "aria-label": `Stop indexing ${root}`, onclick: () => removeRoot(root) }, "Remove")));
  }
  if (!browsing) renderBrowserRoots();
}

async function addRoot(path) {
  if (!path || !path.trim()) return;
  try {
    setRoots(await call("add_indexed_folder", { path: path.trim() }));
    $("#root-path").value = "";
    toast(`Indexing ${basename(path.trim())}…`);
    refreshStats();
  } catch (error) {
    reportError(error, "Could not add the folder");
  }
}

async function removeRoot(root) {
  const ok = await dialog({ title: "Stop indexing this folder?", body: `${root}\n\nYour files stay where they are; SenseTree forgets their index.`, ok: "Remove", danger: true });
  if (!ok) return;
  try {
    setRoots(await call("remove_indexed_folder", { path: root }));
    if (browsing && browsing.startsWith(root)) browsing = null;
    refreshStats();
  } catch (error) {
    reportError(error, "Could not remove the folder");
  }
}

function entryOf(entry, folder) {
  if (typeof entry === "string") {
    const m = entry.match(/^\[(D|F)\]\s*(.*)$/);
    return { path: m ? m[2] : entry, isDir: m ? m[1] === "D" : false };
  }
  const kind = entry.kind || entry.type;
  return { path: entry.path || `${folder}/${entry.name}`, isDir: Boolean(entry.is_dir ?? entry.dir) || ["dir", "directory", "folder", "D"].includes(kind), entry };
}

function renderBrowserRoots() {
  $("#browse-path").textContent = "";
  $("#browse-tools").hidden = true;
  const list = clear($("#browser"));
  for (const root of state.roots) list.append(h("li", {}, h("button", { type: "button", onclick: () => browse(root) }, "📁", h("span.grow", {}, root))));
  if (!state.roots.length) list.append(h("li.muted", {}, "Nothing to browse yet."));
}

async function browse(folder) {
  browsing = folder;
  $("#browse-path").textContent = folder;
  const list = clear($("#browser"));
  const isRoot = state.roots.includes(folder);
  const tools = clear($("#browse-tools"));
  tools.hidden = false;
  tools.append(
    h("button.btn.small", { type: "button", onclick: () => (isRoot ? (browsing = null, renderBrowserRoots()) : browse(dirname(folder))) }, "↑ Up"),
    h("button.btn.small", { type: "button", onclick: () => { useScope($("#chat-scope"), folder); useScope($("#search-scope"), folder); toast(`Chat and search now look in ${basename(folder)}.`); } }, "Use as scope"),
    h("button.btn.small", { type: "button", onclick: () => qualifyFolder(folder) }, "Qualify all"));
  try {
    const listing = await call("list_directory", { path: folder });
    const entries = (Array.isArray(listing) ? listing : listing?.entries || []).map((e) => entryOf(e, folder));
    entries.sort((a, b) => (b.isDir - a.isDir) || a.path.localeCompare(b.path));
    for (const { path, isDir } of entries) {
      list.append(h("li", {}, h("button", { type: "button", "data-testid": "browser-entry", onclick: () => (isDir ? browse(path) : showFile(path)) },
        isDir ? "📁" : "📄", h("span.grow", {}, basename(path)))));
    }
    if (!entries.length) list.append(h("li.muted", {}, "This folder is empty."));
  } catch (error) {
    reportError(error, `Could not list ${basename(folder)}`);
  }
}

async function qualifyFolder(folder) {
  try {
    const result = await call("qualify_folder", { path: folder });
    toast(`Describing ${result.count ?? "the"} file(s) in ${basename(folder)}.`);
  } catch (error) {
    reportError(error, "Could not qualify the folder");
  }
}

let queueInFlight = false;
async function refreshQueue() {
  if (queueInFlight) return;
  queueInFlight = true;
  try {
    const items = (await call("indexing_queue", { limit: 200 })) || [];
    const failed = items.filter((i) => i.status === "failed");
    const waiting = items.filter((i) => !failed.includes(i));
    const failedList = clear($("#failed-list"));
    for (const item of failed) {
      failedList.append(h("li", { "data-testid": "failed-item" }, h("div.grow", {}, h("button.btn.link", { type: "button", onclick: () => showFile(item.path) }, basename(item.path)), h("div.failed-reason", {}, item.error || "Failed")),
        h("button.btn.small", { type: "button", onclick: () => retry(item.path) }, "Retry")));
    }
    if (!failed.length) failedList.append(h("li.muted", {}, "No failures."));
    $("#retry-all").disabled = !failed.length;
    const queueList = clear($("#queue-list"));
    for (const item of waiting.slice(0, 100)) queueList.append(h("li", {}, pathLabel(item.path), h(`span.badge.${item.status || "queued"}`, {}, item.status || "queued"), h("span.muted.small", { title: "Priority" }, `p${item.priority ?? ""}`)));
    if (!waiting.length) queueList.append(h("li.muted", {}, "Nothing waiting."));
  } catch (error) {
    reportError(error, "Could not read the queue");
  } finally {
    queueInFlight = false;
  }
}

async function retry(path) {
  try { await call("retry_indexing", path ? { path } : {}); refreshStats(); } catch (error) { reportError(error, "Could not retry"); }
}

export function initFolders() {
  onRoots(renderRoots);
  onStats(renderStats);
  onShowFile((path) => { showDetails(path); });
  if (mode === "window") $("#root-pick").hidden = false;
  $("#root-pick").addEventListener("click", async () => {
    try { const chosen = await call("pick_folder"); if (chosen) await addRoot(chosen); } catch (error) { reportError(error, "Could not open the folder picker"); }
  });
  $("#add-root-form").addEventListener("submit", (e) => { e.preventDefault(); addRoot($("#root-path").value); });
  $("#retry-all").addEventListener("click", () => retry());
  $("#index-pause").addEventListener("click", async () => {
    try { await call("set_indexing_paused", { paused: !(state.stats && state.stats.paused) }); refreshStats(); } catch (error) { reportError(error, "Could not pause"); }
  });
  refreshRoots();
}

export function onFoldersShown() { refreshStats(); refreshQueue(); }
