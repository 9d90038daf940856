// File details: what SenseTree knows about one file or folder, written for a person — a size in KB/MB,
// dates in local time, a status badge that matches the file's state, no raw null/true/false, and for a
// failed file the reason in full with Retry. The formatting helpers are pure, so tests can call them.

import { call } from "./api.js";
import { openPath } from "./chat.js";
import { refreshStats } from "./state.js";
import { PICTURES } from "./thumbs.js";
import { $, basename, clear, dialog, formatNumber, formatTime, h, reportError, toast } from "./ui.js";

/** "532 bytes", "12.3 KB", "4.1 MB" (decimal units, like the rest of SenseTree's messages). */
export function formatSize(bytes) {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes < 0) return "";
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

const STATUS = {
  done: ["Indexed", "done", "Its text is searchable by keyword and meaning."],
  skipped: ["Name only", "skipped", "No text could be read, so it is found by its name."],
  read: ["Name and readings", "skipped", "It holds no text of its own; it is found by its name and by what was read from it, shown below."],
  failed: ["Failed", "failed", "SenseTree could not read it; the reason is below."],
  queued: ["Waiting", "queued", "In the indexing queue."],
  folder: ["Folder", "folder", ""],
  "not indexed": ["Not indexed yet", "idle", "Not read yet; it is picked up when indexing reaches it."],
};

/** The badge for a file's state: [label, css class, tooltip]. A queued file that was indexed before
 * is "Re-indexing"; a failed file is never shown as waiting; a file with no text of its own that has
 * readings (a caption, EXIF, OCR) is not "Name only", since those are searchable too. */
export function statusBadge(info) {
  const status = info.status || "not indexed";
  if (status !== "failed" && info.queued && status !== "folder") {
    return status === "done" || status === "skipped" ? ["Re-indexing", "queued", "Queued to be read again."] : STATUS.queued;
  }
  if (status === "skipped" && Array.isArray(info.readings) && info.readings.length) return STATUS.read;
  return STATUS[status] || [String(status), "pending", ""];
}

const KINDS = { pdf: "PDF", docx: "Word document", odt: "OpenDocument text", spreadsheet: "Spreadsheet", presentation: "Presentation", markdown: "Markdown", text: "Text", code: "Source code", csv: "CSV table", json: "JSON", xml: "XML", yaml: "YAML", html: "Web page", epub: "E-book", rtf: "Rich text", binary: "Binary (no text)", large: "Too large to read" };

/** The facts shown in the grid, as [label, value] pairs, leaving out what is unknown. */
export function detailRows(info) {
  const rows = [["Path", info.path]];
  if (info.is_dir) rows.push(["Kind", "Folder"]);
  else if (info.doc_type === "binary" && PICTURES.test(info.path || "")) rows.push(["Kind", "Picture"]);
  else if (info.doc_type) rows.push(["Kind", KINDS[info.doc_type] || info.doc_type]);
  if (!info.is_dir && typeof info.size === "number") rows.push(["Size", formatSize(info.size)]);
  if (info.mtime) rows.push(["Modified", formatTime(info.mtime)]);
  if (typeof info.files === "number") rows.push(["Indexed files", formatNumber(info.files)]);
  if (!info.is_dir && info.chunks) rows.push(["Passages", formatNumber(info.chunks)]);
  if (info.root && info.root !== info.path) rows.push(["Indexed folder", info.root]);
  return rows.filter(([, value]) => value !== null && value !== undefined && value !== "");
}

export async function showDetails(path) {
  const box = clear($("#details"));
  box.append(h("p.muted", {}, `Loading ${basename(path)}…`));
  let info;
  try { info = await call("path_details", { path }); } catch (error) { clear(box).append(h("p.banner.error", {}, error.message)); return; }
  const [label, css, tip] = statusBadge(info);
  clear(box).append(...[
    h("div.row", {}, h("strong.grow", { title: info.path }, info.name || basename(info.path)),
      h(`span.badge.${css}`, { "data-testid": "details-status", title: tip }, label),
      info.pinned ? h("span.badge.pinned", { title: "Your correction: re-indexing keeps it" }, "pinned") : null),
    info.is_dir || (info.status === "failed" && !info.sense) ? null : h("p.sense", { "data-testid": "details-sense" }, info.sense || "No sense yet."),
    info.status === "failed" ? failedBox(info) : null,
    info.note && !noteRepeatsReading(info) ? h("p.muted.small", { "data-testid": "details-note" }, info.note) : null,
    readingsBox(info),
    h("dl.details-grid", { "data-testid": "details-grid" }, detailRows(info).flatMap(([k, v]) => [h("dt", {}, k), h(k === "Path" || k === "Indexed folder" ? "dd.mono.small" : "dd", {}, String(v))])),
    h("div.row", {},
      h("button.btn.small", { type: "button", onclick: () => openPath(info.path) }, "Open"),
      h("button.btn.small", { type: "button", onclick: () => openPath(info.path, true) }, "Show in folder"),
      info.is_dir ? null : h("button.btn.small", { type: "button", onclick: () => qualifyFile(info.path) }, "Qualify"),
      info.is_dir ? null : h("button.btn.small", { type: "button", "data-testid": "edit-sense", onclick: () => editSense(info) }, "Edit sense"),
      h("button.btn.small", { type: "button", onclick: () => reindex(info.path) }, "Re-index")),
  ].filter(Boolean)); // Element.append writes a null child as the text "null"
}

/** What was read from the file besides its text (a caption or transcript, EXIF, tags, OCR text), each
 * with where it came from, in one box. */
export function readingsBox(info) {
  const readings = Array.isArray(info.readings) ? info.readings : [];
  if (!readings.length) return null;
  return h("div.readings", { "data-testid": "details-readings" }, readings.map((r) =>
    h("section.reading", { "data-testid": "details-reading" },
      h("div.reading-head", {}, h("strong", {}, r.label), h("span.reading-source", {}, `from ${r.source}`)),
      h("p.reading-text", {}, r.text))));
}

/** The file's note only repeats where a reading came from ("Caption from llava at …"): the box says it
 * already. */
export function noteRepeatsReading(info) {
  const note = String(info.note || "").toLowerCase();
  const readings = Array.isArray(info.readings) ? info.readings : [];
  return readings.some((r) => note.startsWith(`${r.label} from ${r.source}`.toLowerCase()));
}

function failedBox(info) {
  return h("div.failed-box", { "data-testid": "details-failed" },
    h("p.failed-reason", {}, info.error || "Indexing failed without a reason."),
    h("button.btn.small", { type: "button", "data-testid": "details-retry", onclick: () => retry(info.path) }, "Retry"));
}

async function retry(path) {
  try { await call("retry_indexing", { path }); toast(`${basename(path)} queued to be read again.`); refreshStats(); showDetails(path); } catch (error) { reportError(error, "Could not retry"); }
}

async function qualifyFile(path) {
  try { await call("qualify_file", { path }); showDetails(path); } catch (error) { reportError(error, "Could not describe the file"); }
}

async function editSense(info) {
  const area = h("textarea", { "aria-label": "Sense", rows: 5 });
  area.value = info.sense || "";
  const body = h("div", {}, h("p.muted.small", {}, "Your text is pinned: re-indexing keeps it, and the file is re-embedded with it so search follows."), area);
  if (!(await dialog({ title: `Sense of ${basename(info.path)}`, body, ok: "Save and pin" }))) return;
  try { await call("set_file_summary", { path: info.path, summary: area.value }); toast("Sense saved and pinned."); showDetails(info.path); } catch (error) { reportError(error, "Could not save the sense"); }
}

async function reindex(path) {
  try { await call("reindex_path", { path }); toast(`${basename(path)} queued for re-indexing.`); refreshStats(); showDetails(path); } catch (error) { reportError(error, "Could not re-index"); }
}
