// The meaning map, a view of Search ("Show as map"): where in the folder tree a query's matches live.
// `semantic_tree` scores each folder by its best file and sorts branches by score; this draws it as a
// collapsible tree shaded by score with bars, or as a treemap whose areas follow file sizes. Clicking a
// file opens its details.

import { call } from "./api.js";
import { showFile } from "./state.js";
import { $, clear, formatNumber, h, reportError } from "./ui.js";

let mode = "tree"; // or "treemap"
let lastTree = null;
let showWeak = false;
const WEAK = 0.2; // a file scoring under this share of the best match is a weak match, hidden until asked

/** `node` without the files that score under `floor` (and folders left empty); counts what it hides. */
function strong(node, floor, hidden) {
  if (!node.is_dir) {
    if (node.score >= floor) return node;
    hidden.count += 1;
    return null;
  }
  const children = node.children.map((c) => strong(c, floor, hidden)).filter(Boolean);
  if (!children.length) return null;
  return { ...node, children, size: children.reduce((sum, c) => sum + (c.size || 0), 0) };
}

function shade(score, top, strength = 1) {
  const t = top > 0 ? Math.max(0, Math.min(1, score / top)) : 0;
  return `color-mix(in srgb, var(--accent) ${Math.round((12 + 70 * t) * strength)}%, transparent)`;
}

function bar(score, top) {
  const fill = h("span");
  fill.style.width = `${Math.round((top > 0 ? Math.max(0, score / top) : 0) * 100)}%`;
  fill.style.background = shade(score, top);
  return h("span.score", {}, h("span.score-bar", {}, fill), score.toFixed(3));
}

function treeNode(node, top, depth) {
  if (!node.is_dir) {
    return h("li.map-file", { "data-testid": "map-file" },
      h("span.grow", {}, h("button.btn.link.small", { type: "button", title: node.path, onclick: () => showFile(node.path) }, node.name)),
      bar(node.score, top));
  }
  const children = h("ul.map-children", {}, ...node.children.map((c) => treeNode(c, top, depth + 1)));
  // CSSOM, never a style attribute: the page's CSP (style-src 'self') drops inline style attributes.
  const summary = h("summary", {}, h("span.grow", {}, `📁 ${node.name}`), bar(node.score, top));
  summary.style.background = shade(node.score, top, 0.4); // light enough for its own bar to show
  return h("li.map-folder", { "data-testid": "map-folder" }, h("details", { open: depth < 2 }, summary, children));
}

/** Slice-and-dice treemap: each level splits its box along the longer side, areas ∝ size (≥ 1). */
function layout(node, x, y, w, hgt, top, out, depth = 0) {
  const weight = (n) => Math.max(n.size || 0, 1);
  if (!node.is_dir || !node.children.length || depth > 6) {
    out.push({ node, x, y, w, h: hgt });
    return;
  }
  const total = node.children.reduce((s, c) => s + weight(c), 0);
  let offset = 0;
  for (const child of node.children) {
    const part = weight(child) / total;
    if (w >= hgt) layout(child, x + offset * w, y, part * w, hgt, top, out, depth + 1);
    else layout(child, x, y + offset * hgt, w, part * hgt, top, out, depth + 1);
    offset += part;
  }
}

function treemap(tree) {
  const box = h("div.treemap", { "data-testid": "map-treemap", role: "img", "aria-label": "Treemap of matches by size" });
  const cells = [];
  layout(tree, 0, 0, 100, 100, tree.score, cells);
  for (const { node, x, y, w, h: hh } of cells) {
    const cell = h("button.treemap-cell", {
      type: "button",
      title: `${node.path}\nscore ${node.score.toFixed(3)} · ${formatNumber(node.size)} bytes`,
      onclick: () => (node.is_dir ? null : showFile(node.path)),
    }, w > 6 && hh > 4 ? node.name : "");
    Object.assign(cell.style, { left: `${x}%`, top: `${y}%`, width: `${w}%`, height: `${hh}%`, background: shade(node.score, tree.score) });
    box.append(cell);
  }
  return box;
}

function render() {
  const box = clear($("#search-map"));
  if (!lastTree) { box.append(h("p.muted", {}, "No matches to map. Try other words, or check that the folder is indexed.")); return; }
  const hidden = { count: 0 };
  const tree = showWeak ? lastTree : strong(lastTree, WEAK * lastTree.score, hidden) || lastTree;
  const weak = showWeak || hidden.count
    ? h("button.btn.link.small", { type: "button", "data-testid": "map-weak-toggle", onclick: () => { showWeak = !showWeak; render(); } },
      showWeak ? "Hide weak matches" : `Show ${hidden.count} weak ${hidden.count === 1 ? "match" : "matches"}`)
    : null;
  const tabs = h("div.row.map-tabs", {},
    h("button.btn.small", { type: "button", "aria-pressed": String(mode === "tree"), onclick: () => { mode = "tree"; render(); } }, "Tree"),
    h("button.btn.small", { type: "button", "aria-pressed": String(mode === "treemap"), "data-testid": "map-treemap-toggle", onclick: () => { mode = "treemap"; render(); } }, "Treemap by size"),
    h("span.grow"), weak);
  box.append(tabs, mode === "tree" ? h("ul.map-tree", { "data-testid": "map-tree" }, treeNode(tree, tree.score, 0)) : treemap(tree));
}

async function drawMap() {
  const query = $("#search-input").value;
  if (!query.trim()) return;
  const box = clear($("#search-map"));
  box.append(h("p.muted", {}, "Mapping…"));
  try {
    lastTree = await call("semantic_tree", { query, scope: $("#search-scope").value || undefined, limit: 100 });
    render();
  } catch (error) {
    clear(box);
    reportError(error, "Could not draw the map");
  }
}

function setMapMode(on) {
  const toggle = $("#search-map-toggle");
  toggle.setAttribute("aria-pressed", String(on));
  toggle.textContent = on ? "Show as list" : "Show as map";
  $("#search-map").hidden = !on;
  $("#search-results").hidden = on;
  if (on) drawMap();
}

export function initMeaningMap() {
  const toggle = $("#search-map-toggle");
  toggle.addEventListener("click", () => setMapMode(toggle.getAttribute("aria-pressed") !== "true"));
  $("#search-form").addEventListener("submit", () => { if (toggle.getAttribute("aria-pressed") === "true") drawMap(); });
}
