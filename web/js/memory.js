// Settings → Agent memory: the notes the assistant saved. A note it suggested after reading files is
// *pending*: it is shown first, marked, with Keep / Discard, and it never reaches a prompt until kept
// (file contents are data, not instructions). Confirmed notes can be forgotten one by one or all at once.

import { call } from "./api.js";
import { $, clear, dialog, formatTime, h, reportError, toast } from "./ui.js";

function pendingItem(note) {
  const keep = async () => {
    try { await call("agent_memory_confirm", { id: note.id }); toast("Kept: the assistant will use this note."); } catch (error) { reportError(error, "Could not keep the note"); }
    renderMemory();
  };
  const discard = async () => {
    try { await call("agent_memory_delete", { id: note.id }); toast("Discarded."); } catch (error) { reportError(error, "Could not discard the note"); }
    renderMemory();
  };
  return h("li.pending", { "data-testid": "memory-pending" },
    h("span.grow", {}, h("span.badge.pending", {}, "awaiting confirmation"), " ", note.note,
      h("div.muted.small", {}, "Suggested after reading your files: keep it only if it is true.")),
    h("span.muted.small", {}, formatTime(note.created_at)),
    h("button.btn.small.primary", { type: "button", "aria-label": `Keep: ${note.note}`, onclick: keep }, "Keep"),
    h("button.btn.small.ghost", { type: "button", "aria-label": `Discard: ${note.note}`, onclick: discard }, "Discard"));
}

function confirmedItem(note) {
  const forget = async () => { await call("agent_memory_delete", { id: note.id }).catch(reportError); renderMemory(); };
  return h("li", {}, h("span.grow", {}, note.note), h("span.muted.small", {}, formatTime(note.created_at)),
    h("button.btn.small.ghost", { type: "button", "aria-label": `Forget: ${note.note}`, onclick: forget }, "Forget"));
}

export async function renderMemory() {
  const list = clear($("#memory-list"));
  try {
    const notes = await call("agent_memory_list");
    if (!notes.length) list.append(h("li.muted", {}, "The assistant has not saved any notes yet."));
    for (const note of notes.filter((n) => n.pending)) list.append(pendingItem(note));
    for (const note of notes.filter((n) => !n.pending)) list.append(confirmedItem(note));
  } catch (error) { reportError(error, "Could not read the memory"); }
}

export function initMemory() {
  $("#memory-clear").addEventListener("click", async () => {
    if (!(await dialog({ title: "Forget everything?", body: "Every note the assistant saved will be deleted, pending ones too.", ok: "Clear memory", danger: true }))) return;
    try { await call("agent_memory_clear"); renderMemory(); } catch (error) { reportError(error, "Could not clear the memory"); }
  });
}
