// Folders & indexing: the roots (native picker in the window, a path field in a browser), live progress
// from indexing-progress events, a small browser over the indexed folders (a file's details are in
// details.js), failed files with their reasons and Retry, the queue, and Pause / Resume.

import { call, mode } from "./api.js";
import { showDetails } from "./details.js";
import { onRoots, onShowFile, onStats, refreshRoots, refreshStats, setRoots, showFile, state, useScope } from "./state.js";
import { $, basename, clear, dialog, dirname, formatNumber, h, pathLabel, reportError, toast } from "./ui.js";

const STAT_LABELS = [["files", "Files"], ["chunks", "Chunks"], ["queued", "Queued"], ["done", "Done"], ["failed", "Failed"], ["skipped", "By name only"]];
const STAT_HELP = { skipped: "Files with no text to read (images, archives, programs…): found by their name, not their content." };
let browsing = null;

/** Work left in the engine's progress model: files to make searchable, then to embed, then purges. */
export function indexingBusy(stats) {
  const kw = stats.keyword || { done: 0, total: 0 };
  const sem = stats.semantic || { done: 0, total: 0 };
  return Boolean(stats.queued) || kw.done < kw.total || sem.done < sem.total || Boolean((stats.removing || []).length) || Boolean((stats.scanning || []).length);
}

/** The card's bar and words, from the progress model alone (never "Up to date" while work is left). */
export function progressOf(stats) {
  const kw = stats.keyword || { done: (stats.done || 0) + (stats.skipped || 0), total: (stats.done || 0) + (stats.skipped || 0) + (stats.queued || 0) };
  const sem = stats.semantic || { done: kw.done, total: kw.total };
  // a folder the last snapshot still lists but the page has just removed is being removed
  const known = new Set((stats.roots || []).map((r) => r.path));
  const removing = [...(stats.removing || []), ...(state.rootsKnown ? [...known].filter((r) => !state.roots.includes(r)) : [])];
  // a folder the last snapshot does not know yet (just added) is waiting for its scan
  const scanning = [...(stats.scanning || []), ...(Array.isArray(stats.roots) ? state.roots.filter((r) => !known.has(r)) : [])];
  const keywordLeft = Math.max(kw.total - kw.done, 0, stats.queued || 0);
  const semanticLeft = Math.max(sem.total - sem.done, 0);
  const phase = keywordLeft ? kw : sem;
  // one bar over both phases: files made searchable count, so it does not fall back to empty when
  // the (slower) understanding phase starts
  const total = kw.total + sem.total;
  const pct = total ? Math.round(((kw.done + sem.done) / total) * 100) : state.roots.length ? 100 : 0;
  const eta = phase.eta_s ? ` · about ${formatDuration(phase.eta_s)}` : "";
  const current = phase.current ? ` · ${basename(phase.current)}` : "";
  let label = "Up to date";
  if (removing.length) label = `Removing ${basename(removing[0])}…`;
  else if (stats.paused) label = keywordLeft || semanticLeft ? `Paused · ${formatNumber(keywordLeft || semanticLeft)} waiting` : "Paused";
  else if (!keywordLeft && scanning.length) label = `Looking for files in ${basename(scanning[0])}…`;
  else if (keywordLeft) label = `Indexing… ${formatNumber(keywordLeft)} left${eta}${current}`;
  else if (semanticLeft) label = `Searchable by name and words · understanding ${formatNumber(semanticLeft)} more${eta}`;
  else if (!state.rootsKnown) label = "Loading…";
  else if (!state.roots.length) label = "Add a folder to start";
  return { pct, label, busy: (indexingBusy(stats) || scanning.length > 0) && !stats.paused };
}

function formatDuration(seconds) {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
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
  clear($("#index-stats")).append(...STAT_LABELS.map(([key, name]) => h("div", { title: STAT_HELP[key] }, h("dt", {}, name), h("dd", { "data-stat": key }, formatNumber(stats[key])))));
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
  const before = state.roots;
  setRoots(before.filter((r) => r !== root)); // gone from the list at once; the purge runs in the background
  if (browsing && browsing.startsWith(root)) browsing = null;
  try {
    setRoots(await call("remove_indexed_folder", { path: root }));
    refreshStats();
  } catch (error) {
    setRoots(before);
    reportError(error, "Could not remove the folder");
  }
}

/** list_directory answers Entry objects {path, name, is_dir, size, modified}; the engine joins paths. */
function entryOf(entry) {
  return { path: entry.path, isDir: entry.is_dir, entry };
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
    const entries = listing.map(entryOf);
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
  onRoots(() => { if (state.stats) renderStats(state.stats); }); // the label depends on the roots too
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
