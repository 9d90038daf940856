// The conversation list left of the chat log: newest first, searchable (titles, questions and answers,
// filtered by the engine), collapsible, with New chat (Ctrl/Cmd+N), rename and delete (after a
// confirmation). Which conversation is open, and how far it was scrolled, is kept in localStorage, so a
// reload or a restart reopens it where the person left it. chat.js owns the log; this module only
// tells it which conversation to show (`onOpen`) and is told when one changed (`refreshConversations`).

import { call } from "./api.js";
import { $, clear, dialog, formatTime, h, reportError } from "./ui.js";

const OPEN_KEY = "sensetree-open-conversation";
const SCROLL_KEY = "sensetree-conversation-scroll";
const COLLAPSED_KEY = "sensetree-conversations-collapsed";

let openHandler = () => {};
let activeId = null;
let query = "";
let searchTimer = null;

/** chat.js: called with a conversation id (or null for a new chat) when the person picks one. */
export function onOpen(fn) { openHandler = fn; }

export function savedConversation() { return localStorage.getItem(OPEN_KEY); }

export function setActive(id) {
  activeId = id || null;
  if (activeId) localStorage.setItem(OPEN_KEY, activeId);
  else localStorage.removeItem(OPEN_KEY);
  for (const item of document.querySelectorAll("#conv-list .conv-item")) {
    item.classList.toggle("active", item.dataset.id === activeId);
    const button = item.querySelector(".conv-open");
    if (item.dataset.id === activeId) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
}

function scrolls() {
  try { return JSON.parse(localStorage.getItem(SCROLL_KEY) || "{}"); } catch { return {}; }
}

export function saveScroll(id, top) {
  if (!id) return;
  const all = scrolls();
  all[id] = Math.round(top);
  const keys = Object.keys(all);
  if (keys.length > 200) delete all[keys[0]];
  localStorage.setItem(SCROLL_KEY, JSON.stringify(all));
}

export function savedScroll(id) {
  const top = scrolls()[id];
  return typeof top === "number" ? top : null;
}

function forgetScroll(id) {
  const all = scrolls();
  delete all[id];
  localStorage.setItem(SCROLL_KEY, JSON.stringify(all));
}

async function rename(conversation) {
  const input = h("input", { type: "text", value: conversation.title, "aria-label": "New title", "data-testid": "conv-rename-input" });
  const body = h("div", {}, input);
  setTimeout(() => { input.focus(); input.select(); });
  if (!(await dialog({ title: "Rename the conversation", body, ok: "Rename" }))) return;
  try {
    await call("rename_conversation", { conversation_id: conversation.conversation_id, title: input.value });
    refreshConversations();
    if (conversation.conversation_id === activeId) document.dispatchEvent(new CustomEvent("sensetree-conversation-renamed", { detail: input.value }));
  } catch (error) { reportError(error, "Could not rename"); }
}

async function remove(conversation) {
  const ok = await dialog({ title: "Delete this conversation?", body: `“${conversation.title}” and its ${conversation.turns} turn(s) will be deleted for good. Files and plans are not touched.`, ok: "Delete", danger: true });
  if (!ok) return;
  try {
    await call("delete_conversation", { conversation_id: conversation.conversation_id });
    forgetScroll(conversation.conversation_id);
    if (conversation.conversation_id === activeId) openHandler(null);
    refreshConversations();
  } catch (error) { reportError(error, "Could not delete"); }
}

function when(seconds) {
  const date = new Date(seconds * 1000);
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : date.toLocaleDateString();
}

function row(conversation) {
  const id = conversation.conversation_id;
  return h(`li.conv-item${id === activeId ? ".active" : ""}`, { "data-id": id, "data-testid": "conv-item", title: `Updated ${formatTime(conversation.updated_at)}` },
    h("button.conv-open", { type: "button", title: conversation.title, "aria-current": id === activeId ? "true" : null, onclick: () => openHandler(id) },
      h("span.conv-title", {}, conversation.title),
      h("span.conv-meta", {}, `${when(conversation.updated_at)} · ${conversation.turns} turn${conversation.turns === 1 ? "" : "s"}`)),
    h("span.conv-actions", {},
      h("button.icon-btn", { type: "button", title: "Rename", "aria-label": `Rename “${conversation.title}”`, "data-testid": "conv-rename", onclick: () => rename(conversation) }, "✎"),
      h("button.icon-btn.danger-text", { type: "button", title: "Delete", "aria-label": `Delete “${conversation.title}”`, "data-testid": "conv-delete", onclick: () => remove(conversation) }, "🗑")));
}

/** Re-read the list (after a turn, a rename, a delete or a new search). */
export async function refreshConversations() {
  const list = $("#conv-list");
  try {
    const rows = await call("list_conversations", query ? { query } : {});
    clear(list);
    if (!rows.length) list.append(h("li.muted.small.conv-empty", {}, query ? "No conversation matches." : "No conversations yet. Ask something to start one."));
    for (const conversation of rows) list.append(row(conversation));
  } catch (error) { reportError(error, "Could not list the conversations"); }
}

function setCollapsed(collapsed, remember = true) {
  $("#view-chat").classList.toggle("conv-collapsed", collapsed);
  $("#conv-toggle").setAttribute("aria-expanded", String(!collapsed));
  $("#conv-toggle").title = collapsed ? "Show conversations" : "Hide conversations";
  if (remember) localStorage.setItem(COLLAPSED_KEY, collapsed ? "1" : "0"); // only the person's own choice sticks
}

export function initConversations() {
  const stored = localStorage.getItem(COLLAPSED_KEY);
  setCollapsed(stored === null ? window.innerWidth < 980 : stored === "1", false);
  $("#conv-toggle").addEventListener("click", () => setCollapsed(!$("#view-chat").classList.contains("conv-collapsed")));
  $("#conv-new").addEventListener("click", () => openHandler(null));
  $("#conv-search").addEventListener("input", (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { query = e.target.value.trim(); refreshConversations(); }, 200);
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "n") {
      e.preventDefault();
      openHandler(null);
    }
  });
  refreshConversations();
}
