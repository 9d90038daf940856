// Boots the page: wires the views, the sidebar navigation (buttons, and Alt+1…4 from the keyboard) and
// the live indexing status. Nothing here talks to the engine directly except through api.js.

import { initChat } from "./chat.js";
import { indexingBusy, initFolders, onFoldersShown } from "./folders.js";
import { initSearch } from "./search.js";
import { initMeaningMap } from "./meaning_map.js";
import { initTidy, onTidyShown } from "./tidy.js";
import { loadSettings, initSettings } from "./settings.js";
import { onShowFile, refreshStats, state } from "./state.js";
import { call, on } from "./api.js";
import { $, toast } from "./ui.js";

const VIEWS = ["chat", "search", "folders", "tidy", "settings"];

export function navigate(view) {
  for (const name of VIEWS) {
    $(`#view-${name}`).hidden = name !== view;
    const item = document.querySelector(`.nav-item[data-view="${name}"]`);
    if (name === view) item.setAttribute("aria-current", "page");
    else item.removeAttribute("aria-current");
  }
  document.body.dataset.view = view;
  if (view === "folders") onFoldersShown();
  if (view === "settings") loadSettings();
  if (view === "tidy") onTidyShown();
  const focusTarget = { chat: "#chat-input", search: "#search-input" }[view];
  if (focusTarget) $(focusTarget).focus();
}

function init() {
  initChat();
  initSearch();
  initMeaningMap();
  initFolders();
  initTidy();
  initSettings();
  for (const item of document.querySelectorAll(".nav-item")) item.addEventListener("click", () => navigate(item.dataset.view));
  document.addEventListener("keydown", (e) => {
    const index = Number(e.key) - 1;
    if (e.altKey && index >= 0 && index < VIEWS.length) { e.preventDefault(); navigate(VIEWS[index]); }
  });
  onShowFile(() => navigate("folders"));
  refreshStats();
  // Events carry progress; this slow poll only catches up if the event stream was interrupted.
  setInterval(() => { if (!document.hidden && state.stats && indexingBusy(state.stats)) refreshStats(); }, 4000);
  navigate("chat");
  showStartupNotices();
}

/** What SenseTree did or noticed while starting (an interrupted plan rolled back, a settings file kept
 * aside, an index repaired) is told once, so nothing happens to a person's files silently. */
async function showStartupNotices() {
  try {
    const config = await call("get_config");
    for (const notice of config.notices || []) toast(notice, "info", 15000);
  } catch { /* the settings view reports a failing get_config itself */ }
}

// Something the engine did on the person's behalf while running (a damaged index set aside and rebuilt).
on("notice", (payload) => { if (payload.message) toast(payload.message, "info", 15000); });

init();
