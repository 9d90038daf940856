// State several views share: the indexed folders (roots) and the scope pickers fed from them, the
// latest indexing counts, and an "open file" hook so any view can show a file's details.

import { call, on } from "./api.js";
import { basename, h, reportError } from "./ui.js";

const rootListeners = new Set();
const statsListeners = new Set();
// `rootsKnown`: get_roots has answered once (until then no view may say "Add a folder to start").
export const state = { roots: [], rootsKnown: false, stats: null, extraScopes: [] };

export function onRoots(fn) { rootListeners.add(fn); fn(state.roots); }
export function onStats(fn) { statsListeners.add(fn); if (state.stats) fn(state.stats); }

export async function refreshRoots() {
  try {
    state.roots = (await call("get_roots")) || [];
    state.rootsKnown = true;
  } catch (error) {
    reportError(error, "Could not read the indexed folders");
  }
  rootListeners.forEach((fn) => fn(state.roots));
  return state.roots;
}

export function setRoots(roots) {
  state.roots = roots || [];
  state.rootsKnown = true;
  rootListeners.forEach((fn) => fn(state.roots));
}

let statsTimer = null;
let statsInFlight = false;

export async function refreshStats() {
  if (statsInFlight) return state.stats;
  statsInFlight = true;
  try {
    acceptStats(await call("indexing_stats"));
  } catch (error) {
    if (error.code !== "unreachable") reportError(error, "Could not read indexing progress");
  } finally {
    statsInFlight = false;
  }
  return state.stats;
}

/** Coalesce bursts of indexing-progress events into at most ~3 refreshes a second. */
export function scheduleStats() {
  if (statsTimer) return;
  statsTimer = setTimeout(() => { statsTimer = null; refreshStats(); }, 300);
}

/** The one way progress reaches the views: a snapshot of the engine's progress model, kept only when
 * it is newer (by `seq`) than the one shown, so a slow poll answer never overwrites a fresher event. */
export function acceptStats(stats) {
  if (!stats || typeof stats.queued !== "number" || typeof stats.files !== "number") return false;
  const shown = state.stats && typeof state.stats.seq === "number" ? state.stats.seq : -1;
  if (typeof stats.seq === "number" && stats.seq <= shown) return false;
  state.stats = stats;
  statsListeners.forEach((fn) => fn(state.stats));
  return true;
}

on("indexing-progress", (payload) => {
  if (!acceptStats(payload) && !(payload && typeof payload.seq === "number")) scheduleStats();
});

/** Fill a <select> with "Everywhere", the roots and any folder chosen elsewhere; keeps the selection. */
export function bindScopeSelect(select) {
  const render = () => {
    const current = select.value;
    select.replaceChildren(h("option", { value: "" }, "Everywhere"));
    const scopes = [...state.roots, ...state.extraScopes.filter((s) => !state.roots.includes(s))];
    for (const scope of scopes) select.append(h("option", { value: scope, title: scope }, basename(scope)));
    select.value = scopes.includes(current) ? current : "";
  };
  onRoots(render);
  select.addEventListener("sensetree-refresh", render);
}

/** Make a folder available in every scope picker and select it in `select`. */
export function useScope(select, folder) {
  if (!state.roots.includes(folder) && !state.extraScopes.includes(folder)) state.extraScopes.push(folder);
  document.querySelectorAll(".scope-select").forEach((s) => s.dispatchEvent(new Event("sensetree-refresh")));
  select.value = folder;
}

const fileOpeners = new Set();
export function onShowFile(fn) { fileOpeners.add(fn); }
export function showFile(path) { fileOpeners.forEach((fn) => fn(path)); }
