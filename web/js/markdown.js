// Renders the assistant's answer: a small, safe subset of Markdown (paragraphs, lists, code, bold,
// italics) built as DOM nodes, then every mention of a cited file (full path or file name) becomes a
// button that opens it. Model output is data: nothing in it can become markup or script.

import { basename, h } from "./ui.js";

function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("`")) out.push(h("code", {}, token.slice(1, -1)));
    else if (token.startsWith("**")) out.push(h("strong", {}, token.slice(2, -2)));
    else out.push(h("em", {}, token.slice(1, -1)));
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function flushList(blocks, list) {
  if (list) blocks.push(h(list.ordered ? "ol" : "ul", {}, list.items.map((item) => h("li", {}, inline(item)))));
}

/** Markdown subset → a DocumentFragment. */
export function renderMarkdown(text) {
  const blocks = [];
  const parts = String(text || "").split(/```[^\n]*\n?/);
  parts.forEach((part, i) => {
    if (i % 2 === 1) { blocks.push(h("pre", {}, h("code", {}, part.replace(/\n$/, "")))); return; }
    let list = null;
    let paragraph = [];
    const flushParagraph = () => {
      if (paragraph.length) blocks.push(h("p", {}, inline(paragraph.join("\n"))));
      paragraph = [];
    };
    for (const line of part.split("\n")) {
      const item = line.match(/^\s*(?:([-*•])|(\d+)[.)])\s+(.*)$/);
      const heading = line.match(/^#{1,4}\s+(.*)$/);
      if (item) {
        flushParagraph();
        const ordered = Boolean(item[2]);
        if (!list || list.ordered !== ordered) { flushList(blocks, list); list = { ordered, items: [] }; }
        list.items.push(item[3]);
      } else if (heading) {
        flushParagraph(); flushList(blocks, list); list = null;
        blocks.push(h("p", {}, h("strong", {}, inline(heading[1]))));
      } else if (!line.trim()) {
        flushParagraph(); flushList(blocks, list); list = null;
      } else {
        flushList(blocks, list); list = null;
        paragraph.push(line);
      }
    }
    flushParagraph(); flushList(blocks, list);
  });
  const fragment = document.createDocumentFragment();
  fragment.append(...blocks);
  return fragment;
}

/** Turn mentions of the sources' paths or names inside `root` into buttons calling `open(path)`. */
export function linkifySources(root, sources, open) {
  const byMention = new Map();
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
    if (node.parentElement.closest("pre, .file-link")) continue;
    const pieces = node.textContent.split(pattern);
    if (pieces.length < 2) continue;
    const replacement = pieces.map((piece, i) => {
      if (i % 2 === 0) return document.createTextNode(piece);
      const path = byMention.get(piece);
      return h("button.file-link", { type: "button", title: `Open ${path}`, onclick: () => open(path) }, piece);
    });
    node.replaceWith(...replacement);
  }
}
