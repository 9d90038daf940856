// Renders the assistant's Markdown as DOM nodes, never as HTML: model output is data, so nothing in it
// can become markup or script (a `<b>` in an answer shows as the text "<b>"). Supported: headings,
// paragraphs, bullet and numbered lists (nested by indentation), GFM tables, block quotes, horizontal
// rules, fenced code (language label and a Copy button), inline code, bold, italics, strike-through and
// links. A link to a file (file:// or an absolute path) opens the file through open_path; a web link
// (http, https, mailto) opens in the system browser; any other scheme stays plain text.
// While an answer streams it is re-rendered as it grows (`partial: true`): an unclosed code fence is
// shown as code, and an emphasis marker still waiting for its closing half is held back rather than
// shown raw, so the reader never sees a stray `**`.

import { basename, folderHints, h } from "./ui.js";

const WEB_LINK = /^(https?:|mailto:)/i;
const FILE_LINK = /^(file:\/\/|\/|[A-Za-z]:[\\/])/;

let openFile = () => {};

/** Where file links go (chat.js hands in its open_path caller). */
export function setFileOpener(fn) { openFile = fn; }

function filePath(href) {
  if (!href.startsWith("file://")) return href;
  let path = decodeURIComponent(href.slice(7));
  if (/^\/[A-Za-z]:\//.test(path)) path = path.slice(1); // file:///C:/x → C:/x
  return path;
}

function link(text, href, { autolink = false } = {}) {
  const target = href.trim();
  const label = autolink ? text : inline(text); // an autolink's text is the URL itself: no second pass
  if (WEB_LINK.test(target)) {
    return h("a.md-link", { href: target, target: "_blank", rel: "noopener noreferrer", title: target }, label);
  }
  if (FILE_LINK.test(target)) {
    const path = filePath(target);
    return h("button.file-link", { type: "button", title: `Open ${path}`, "data-path": path, onclick: () => openFile(path) }, label);
  }
  return `[${text}](${href})`;
}

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\[([^\]\n]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\*\*([^*\n]+?)\*\*|__([^_\n]+?)__|~~([^~\n]+?)~~|(?<![\w*])\*([^*\s][^*\n]*?)\*(?!\w)|(?<![\w_])_([^_\s][^_\n]*?)_(?!\w)|<(https?:\/\/[^>\s]+)>|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

/** Inline Markdown → an array of nodes and strings. */
export function inline(text) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1]) out.push(h("code", {}, m[2].replace(/^ (.*) $/, "$1")));
    else if (m[3]) out.push(link(m[3], m[4]));
    else if (m[5] || m[6]) out.push(h("strong", {}, inline(m[5] || m[6])));
    else if (m[7]) out.push(h("del", {}, inline(m[7])));
    else if (m[8] || m[9]) out.push(h("em", {}, inline(m[8] || m[9])));
    else out.push(link(m[10] || m[11], m[10] || m[11], { autolink: true }));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function copyButton(getText, label = "Copy") {
  const button = h("button.btn.small.ghost.copy", { type: "button", "data-testid": "copy-code", "aria-label": `${label} to the clipboard` }, label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(getText());
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => { button.textContent = label; }, 1500);
  });
  return button;
}

export { copyButton };

function codeBlock(lang, code) {
  const language = (lang || "").trim().split(/\s+/)[0];
  const head = h("div.code-head", {}, h("span.code-lang", {}, language || "text"), copyButton(() => code));
  return h("div.code-block", { "data-testid": "code-block" }, head,
    h("pre", {}, h("code", { "data-lang": language || null }, code)));
}

function splitRow(line) {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function table(lines) {
  const header = splitRow(lines[0]);
  const aligns = splitRow(lines[1]).map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : null));
  // a class, not a style attribute: the page's CSP (style-src 'self') drops inline styles
  const cell = (tag, text, i) => h(aligns[i] ? `${tag}.align-${aligns[i]}` : tag, {}, inline(text));
  const body = lines.slice(2).map((l) => h("tr", {}, splitRow(l).slice(0, header.length).map((c, i) => cell("td", c, i))));
  return h("div.table-wrap", {}, h("table.md-table", {},
    h("thead", {}, h("tr", {}, header.map((c, i) => cell("th", c, i)))), h("tbody", {}, body)));
}

const ITEM = /^(\s*)([-*+•]|\d+[.)])\s+(.*)$/;

function list(lines) {
  // Nesting follows indentation: an item indented deeper than the one above starts a list inside it.
  const top = [];
  const stack = [{ indent: -1, item: null, list: null }];
  for (const line of lines) {
    const m = line.match(ITEM);
    const current = stack[stack.length - 1];
    if (!m) { // a continuation line joins the previous item
      if (current.item) current.item.append(" ", ...inline(line.trim()));
      continue;
    }
    const indent = m[1].replace(/\t/g, "    ").length;
    while (stack.length > 1 && indent <= stack[stack.length - 1].indent) stack.pop();
    const parent = stack[stack.length - 1];
    const ordered = /\d/.test(m[2]);
    if (!parent.list || parent.list.tagName !== (ordered ? "OL" : "UL")) {
      const start = ordered ? parseInt(m[2], 10) : 1;
      parent.list = h(ordered ? "ol" : "ul", start !== 1 ? { start } : {});
      if (parent.item) parent.item.append(parent.list);
      else top.push(parent.list);
    }
    const task = m[3].match(/^\[([ xX])\]\s+(.*)$/);
    const item = h("li", { class: task ? "task" : null }, task ? [h("input", { type: "checkbox", disabled: true, checked: task[1] !== " " }), " ", inline(task[2])] : inline(m[3]));
    parent.list.append(item);
    stack.push({ indent, item, list: null });
  }
  return top;
}

function holdBackOpenMarkers(text) {
  // While streaming, drop a trailing emphasis/code marker whose closing half has not arrived yet, and
  // show a link whose URL is still arriving as its text.
  const start = text.lastIndexOf("\n") + 1;
  const lastLine = text.slice(start).replace(/^\s*[-*+]\s+/, "");
  let held = text;
  for (const marker of ["**", "~~", "`", "*"]) {
    if ((lastLine.split(marker).length - 1) % 2 === 1) {
      const at = held.lastIndexOf(marker);
      held = held.slice(0, at) + held.slice(at + marker.length);
      break;
    }
  }
  return held.replace(/\[([^\]\n]*)\]\([^)\s]*$/, "$1");
}

function blocks(lines, out) {
  let i = 0;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) out.push(h("p", {}, inline(paragraph.join("\n"))));
    paragraph = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (!line.trim()) { flush(); i += 1; continue; }
    if (heading) { flush(); out.push(h(`h${Math.min(heading[1].length + 2, 6)}.md-h`, {}, inline(heading[2]))); i += 1; continue; }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) { flush(); out.push(h("hr")); i += 1; continue; }
    if (line.includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      flush();
      const rows = [line, lines[i + 1]];
      i += 2;
      while (i < lines.length && lines[i].includes("|") && lines[i].trim()) rows.push(lines[i++]);
      out.push(table(rows));
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ""));
      const inner = [];
      blocks(quoted, inner);
      out.push(h("blockquote", {}, inner));
      continue;
    }
    if (ITEM.test(line)) {
      flush();
      const items = [];
      while (i < lines.length && (ITEM.test(lines[i]) || (lines[i].trim() && /^\s{2,}/.test(lines[i])))) items.push(lines[i++]);
      out.push(...list(items));
      continue;
    }
    paragraph.push(line);
    i += 1;
  }
  flush();
}

/** Markdown → a DocumentFragment. `partial`: the text is still streaming. */
export function renderMarkdown(text, { partial = false } = {}) {
  const out = [];
  const source = String(text || "").replace(/\r\n?/g, "\n");
  const fence = /^(\s*)(```+|~~~+)\s*([^\n`]*)$/;
  const lines = source.split("\n");
  let prose = [];
  let i = 0;
  const flushProse = (isLast) => {
    if (!prose.length) return;
    let chunk = prose.join("\n");
    if (partial && isLast) chunk = holdBackOpenMarkers(chunk);
    blocks(chunk.split("\n"), out);
    prose = [];
  };
  while (i < lines.length) {
    const open = lines[i].match(fence);
    if (!open) { prose.push(lines[i]); i += 1; continue; }
    flushProse(false);
    const code = [];
    i += 1;
    while (i < lines.length && !(lines[i].trim().startsWith(open[2]) && !lines[i].trim().slice(open[2].length).trim())) code.push(lines[i++]);
    i += 1; // the closing fence (or the end of a still-streaming block)
    out.push(codeBlock(open[3], code.join("\n")));
  }
  flushProse(true);
  const fragment = document.createDocumentFragment();
  fragment.append(...out);
  return fragment;
}

/** Turn mentions of the sources' paths or names inside `root` into buttons calling `open(path)`. */
export function linkifySources(root, sources, open) {
  const byMention = new Map();
  const folders = folderHints((sources || []).map((s) => s.path)); // a name two sources share shows its folder
  for (const source of sources || []) {
    byMention.set(source.path, source.path);
    const name = source.name || basename(source.path);
    if (name && name.length > 2 && !byMention.has(name)) byMention.set(name, source.path);
  }
  if (!byMention.size) return;
  const mentions = [...byMention.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(${mentions.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "g");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    if (node.parentElement.closest("pre, .file-link, a, .code-head")) continue;
    const pieces = node.textContent.split(pattern);
    if (pieces.length < 2) continue;
    const replacement = pieces.map((piece, i) => {
      if (i % 2 === 0) return document.createTextNode(piece);
      const path = byMention.get(piece);
      const folder = piece === path ? "" : folders.get(path);
      return h("button.file-link", { type: "button", title: `Open ${path}`, onclick: () => open(path) }, piece,
        folder ? h("span.link-folder", { "data-testid": "link-folder" }, ` (${folder})`) : null);
    });
    node.replaceWith(...replacement);
  }
}
