// Small DOM helpers shared by every view: element building without innerHTML (so file names and model
// output can never inject markup), toasts, a modal dialog, and the few formatters the views agree on.

/** h("button.btn.primary", {onclick, "data-x": 1}, "text", child) */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Replace `el`'s children, skipping null/undefined/false as h() does (the DOM's own append would
 * write them as the text "null"). */
export function fill(el, ...children) {
  append(clear(el), children);
  return el;
}

export function toast(message, kind = "info", ms = 5000) {
  const el = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, message);
  $("#toasts").append(el);
  setTimeout(() => el.remove(), kind === "error" ? ms * 2 : ms);
}

/** Show an error from a failed command in a toast (aborts are silent). */
export function reportError(error, what) {
  if (error && error.name === "AbortError") return;
  toast(what ? `${what}: ${error.message}` : error.message, "error");
}

/** A modal dialog; resolves to true (OK) or false. `body` is a Node or text. */
export function dialog({ title, body, ok = "OK", cancel = "Cancel", danger = false }) {
  const el = $("#dialog");
  $("#dialog-title").textContent = title;
  clear($("#dialog-body")).append(body instanceof Node ? body : h("p", {}, body || ""));
  $("#dialog-ok").textContent = ok;
  $("#dialog-ok").className = `btn ${danger ? "danger" : "primary"}`;
  $("#dialog-cancel").textContent = cancel;
  el.returnValue = "";
  el.showModal();
  return new Promise((resolve) => {
    el.addEventListener("close", () => resolve(el.returnValue === "ok"), { once: true });
  });
}

export function basename(path) {
  const parts = String(path).split(/[\\/]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : String(path);
}

export function dirname(path) {
  const p = String(path).replace(/[\\/]+$/, "");
  const i = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return i <= 0 ? p.slice(0, i + 1) || "/" : p.slice(0, i);
}

/** path -> the folders that tell it apart from the other paths of the same file name ("" when its name is
 * unique among `paths`): the fewest parent folders, nearest first, in which the same-named paths differ. */
export function folderHints(paths) {
  const byName = new Map();
  for (const path of new Set(paths)) {
    const name = basename(path);
    byName.set(name, [...(byName.get(name) || []), path]);
  }
  const hints = new Map();
  for (const group of byName.values()) {
    if (group.length === 1) { hints.set(group[0], ""); continue; }
    const parents = group.map((p) => String(dirname(p)).split(/[\\/]/).filter(Boolean));
    const deepest = Math.max(...parents.map((p) => p.length));
    let depth = 1;
    const tail = (parts, d) => parts.slice(Math.max(0, parts.length - d)).join("/");
    while (depth < deepest && new Set(parents.map((p) => tail(p, depth))).size < group.length) depth += 1;
    group.forEach((path, i) => hints.set(path, tail(parents[i], depth) || "/"));
  }
  return hints;
}

export function separator(path) {
  return String(path).includes("\\") && !String(path).includes("/") ? "\\" : "/";
}

export function formatNumber(n) {
  return typeof n === "number" ? n.toLocaleString() : "—";
}

export function formatTime(value) {
  if (value === undefined || value === null || value === "") return "";
  const date = typeof value === "number" ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** A path shown with its end visible (the file name matters most), full path in the tooltip. */
export function pathLabel(path) {
  return h("span.path.grow", { title: path }, h("bdi", {}, path));
}

/** Text with <mark>s over the engine's highlight ranges ([start, end) pairs: whole, stemmed query terms). */
export function markSpans(text, spans) {
  const fragment = document.createDocumentFragment();
  const source = String(text);
  let at = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (!(start >= at && end > start && end <= source.length)) continue;
    fragment.append(document.createTextNode(source.slice(at, start)), h("mark", {}, source.slice(start, end)));
    at = end;
  }
  fragment.append(document.createTextNode(source.slice(at)));
  return fragment;
}

/** Split text into text nodes and <mark>s for the query's whole words (case-insensitive, words ≥ 2 letters);
 * the fallback where the engine sent no highlight ranges. */
export function highlight(text, query) {
  const words = [...new Set(String(query).toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) || [])];
  const fragment = document.createDocumentFragment();
  if (!words.length) {
    fragment.append(text);
    return fragment;
  }
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${escaped.join("|")})(?![\\p{L}\\p{N}])`, "giu");
  String(text).split(pattern).forEach((part, i) => {
    fragment.append(i % 2 ? h("mark", {}, part) : document.createTextNode(part));
  });
  return fragment;
}
