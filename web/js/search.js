// The search view: hybrid search over the index, scoped to a folder, with the query's words highlighted
// in each snippet and a score bar (scores mean the same on every path, so the bar compares results).

import { call } from "./api.js";
import { openPath } from "./chat.js";
import { bindScopeSelect, showFile } from "./state.js";
import { pageLabel, thumbFor } from "./thumbs.js";
import { $, basename, clear, dirname, folderHints, h, highlight, markSpans, reportError } from "./ui.js";

const COPIES_SHOWN = 5; // identical copies named at once; "+N more" names the rest

/** The identical copies a row stands for (the engine gives one row per content, issue 28): "Also in
 * Downloads/bibimbap.md", each one a link that opens it, so no copy is hidden by the collapse. */
function copiesLine(copies) {
  if (!Array.isArray(copies) || !copies.length) return null;
  const link = (path) => h("button.btn.link.small.result-copy", { type: "button", title: `Open ${path}`, onclick: () => openPath(path) },
    `${basename(dirname(path))}/${basename(path)}`);
  const line = h("p.result-copies", { "data-testid": "result-copies" }, "Also in ", ...copies.slice(0, COPIES_SHOWN).map(link));
  if (copies.length > COPIES_SHOWN) {
    const more = h("button.btn.link.small", { type: "button" }, `+${copies.length - COPIES_SHOWN} more`);
    more.addEventListener("click", () => more.replaceWith(...copies.slice(COPIES_SHOWN).map(link)));
    line.append(more);
  }
  return line;
}

function resultItem(result, query, folder) {
  const score = typeof result.score === "number" ? result.score : 0;
  const fill = h("span");
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`;
  return h("li.result", { "data-testid": "search-result" },
    h("button.result-name", { type: "button", title: `Open ${result.path}`, onclick: () => openPath(result.path) }, result.name || basename(result.path),
      folder ? h("span.result-folder", { "data-testid": "result-folder" }, ` · ${folder}`) : null, pageLabel(result)),
    h("span.score", { title: "Relevance" }, h("span.score-bar", {}, fill), score.toFixed(3)),
    h("span.result-path", {}, result.path),
    copiesLine(result.copies),
    h("p.result-snippet", {}, thumbFor(result.path) || "", Array.isArray(result.highlights) ? markSpans(result.snippet || "", result.highlights) : highlight(result.snippet || "", query)),
    h("div.result-actions", {},
      h("button.btn.link.small", { type: "button", onclick: () => openPath(result.path, true) }, "Show in folder"),
      h("button.btn.link.small", { type: "button", onclick: () => showFile(result.path) }, "Details")));
}

/** Why some results match the query's words only (issue 31): the search could not ask the vector index
 * (it is being rebuilt, or the embedding model failed), or some files' meaning is not indexed yet. */
export function wordsOnlyNotice(results) {
  if (results.some((r) => r.semantic === "keyword-only")) {
    return "Meaning search is unavailable right now (its index is being rebuilt, or the embedding model cannot be reached): these results match your words only.";
  }
  const pending = results.filter((r) => r.semantic === "pending").length;
  if (!pending) return "";
  return `${pending === results.length ? "These results match" : `${pending} of these results match`} your words only: the meaning of ${pending === 1 ? "that file is" : "those files is"} still being indexed.`;
}

function showNotice(text) {
  const notice = $("#search-notice");
  notice.textContent = text;
  notice.hidden = !text;
}

let latest = 0; // the search whose answers may still be shown (a newer one supersedes it)

// The keyword phase's list says "refining by meaning" in its status; the words-only notice (issue 31) is
// about the fused list, so it waits for it.
function showResults(results, query, phase, status) {
  const list = clear($("#search-results"));
  list.dataset.phase = phase;
  if (phase === "keyword") status.textContent = results.length ? `${results.length} keyword match${results.length === 1 ? "" : "es"} · refining by meaning…` : "Refining by meaning…";
  else status.textContent = results.length ? `${results.length} result${results.length === 1 ? "" : "s"}` : "No matches. Try other words, or check that the folder is indexed.";
  showNotice(phase === "fused" ? wordsOnlyNotice(results) : "");
  const folders = folderHints(results.map((r) => r.path)); // same-named files show where they are
  for (const result of results) list.append(resultItem(result, query, folders.get(result.path)));
}

// Keyword first, meaning second: the keyword arm answers in milliseconds (no model), so its hits show at
// once; the fused list replaces them when the query's embedding has landed. Both calls start together.
async function runSearch(query) {
  const search = ++latest;
  const status = $("#search-status");
  delete clear($("#search-results")).dataset.phase;
  showNotice("");
  if (!query.trim()) { status.textContent = ""; return; }
  status.textContent = "Searching…";
  const scope = $("#search-scope").value || undefined;
  let fusedShown = false;
  const fused = call("semantic_search", { query, scope, limit: 20 });
  call("keyword_search", { query, scope, limit: 20 })
    .then((results) => { if (search === latest && !fusedShown) showResults(results, query, "keyword", status); })
    .catch(() => {}); // the fused answer (or its error) follows either way
  try {
    const results = await fused;
    if (search !== latest) return;
    fusedShown = true;
    showResults(results, query, "fused", status);
  } catch (error) {
    if (search !== latest) return;
    status.textContent = "";
    reportError(error, "Search failed");
  }
}

export function initSearch() {
  bindScopeSelect($("#search-scope"));
  $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); runSearch($("#search-input").value); });
}
