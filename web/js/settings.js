// Settings: the reasoning endpoint (with a Test button and a clear verdict), the embedding device, the
// caption and transcript endpoints (settings_media.js), the
// prompts with their defaults and reset, MCP servers and their tools (settings_mcp.js), the agent's
// memory, the history of plans (history.js) and the trash (with Restore). Every change is a deep-merged patch (set_config);
// secrets come back masked and are kept when the mask is sent back unchanged.

import { call } from "./api.js";
import { initMemory, renderMemory } from "./memory.js";
import { renderHistory } from "./history.js";
import { initMcp, renderMcp } from "./settings_mcp.js";
import { initMedia, renderMedia } from "./settings_media.js";
import { initModelPicker, testTyped } from "./models.js";
import { $, basename, clear, dialog, formatTime, h, reportError, toast } from "./ui.js";

const PROMPTS = [["chat_system", "Chat: additional instructions"], ["doc_qualify", "File senses (qualification)"], ["reorganize", "Folder reorganisation"]];
let config = null;

function formValues(form) {
  const values = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    values[el.name] = el.type === "checkbox" ? el.checked : el.value;
  }
  return values;
}

function fillForm(form, values) {
  for (const el of form.elements) {
    if (!el.name || !(el.name in values)) continue;
    if (el.type === "checkbox") el.checked = Boolean(values[el.name]);
    else el.value = values[el.name] ?? "";
  }
}

async function saveConfig(patch, message = "Settings saved.") {
  try {
    config = await call("set_config", { patch });
    toast(message);
    for (const notice of config.save_notices || []) toast(notice, "info", 15000); // e.g. a key not sent to a new address
    return true;
  } catch (error) {
    reportError(error, "Could not save");
    return false;
  }
}

function renderPrompts(defaults) {
  const box = clear($("#prompts"));
  for (const [key, label] of PROMPTS) {
    const area = h("textarea", { id: `prompt-${key}`, rows: 4, placeholder: defaults[key] || "(no default: SenseTree's built-in rules apply)" });
    area.value = config.prompts?.[key] || "";
    const save = () => saveConfig({ prompts: { [key]: area.value } }, "Prompt saved.");
    const reset = async () => { area.value = ""; await saveConfig({ prompts: { [key]: "" } }, "Prompt reset to the default."); };
    const showDefault = () => dialog({ title: `Default: ${label}`, body: h("pre.mono.small", {}, defaults[key] || "(empty)"), ok: "Close", cancel: "Back" });
    box.append(h("div.prompt-block", {}, h("label", { for: `prompt-${key}` }, h("strong", {}, label)), area,
      h("div.row", {}, h("button.btn.small.primary", { type: "button", onclick: save }, "Save"),
        h("button.btn.small", { type: "button", onclick: reset }, "Reset to default"),
        h("button.btn.small.ghost", { type: "button", onclick: showDefault }, "View default"))));
  }
}

async function renderTrash() {
  const list = clear($("#trash-list"));
  try {
    const items = await call("trash_list");
    if (!items.length) list.append(h("li.muted", {}, "The trash is empty."));
    for (const item of items) {
      list.append(h("li", {}, h("span", { "aria-hidden": "true" }, "🗑️"), h("span.grow", { title: item.original_path }, basename(item.original_path), h("div.mono.small.muted", {}, item.original_path)),
        h("span.muted.small", {}, formatTime(item.trashed_at)),
        h("button.btn.small", { type: "button", onclick: async () => { try { const r = await call("trash_restore", { item_id: item.item_id }); toast(`Restored to ${r.path}`); } catch (e) { reportError(e, "Could not restore"); } renderTrash(); } }, "Restore")));
    }
  } catch (error) { reportError(error, "Could not read the trash"); }
}

// The forms loadSettings fills from the saved settings.
const FILLED_FORMS = ["#reasoning-form", "#embedding-form", "#app-form", "#vision-form", "#transcription-form"];
let reads = 0; // loadSettings calls started: only the latest one's end lets the forms be edited again

/** While the saved settings are read, their forms take no typing and no Save: the fill that follows
 * would overwrite what was typed meanwhile, and a Save would send the empty fields. Only the fields this
 * disabled are enabled again. */
function holdForms(held) {
  for (const form of FILLED_FORMS.map((id) => $(id))) {
    form.setAttribute("aria-busy", String(held));
    for (const el of form.elements) {
      if (held && !el.disabled) { el.disabled = true; el.dataset.heldForRead = "1"; }
      else if (!held && el.dataset.heldForRead) { el.disabled = false; delete el.dataset.heldForRead; }
    }
  }
}

export async function loadSettings() {
  const read = ++reads;
  holdForms(true);
  let filled = false;
  try {
    filled = await fillSettings();
  } finally {
    if (read === reads) holdForms(false);
  }
  if (filled) { renderMcp(); renderMemory(); renderHistory(renderTrash); renderTrash(); }
}

/** Fill the forms from the saved settings; false when they could not be read (the error is shown). */
async function fillSettings() {
  try {
    config = await call("get_config");
    const defaults = await call("get_default_prompts");
    $("#config-warning").hidden = !config.load_warning;
    $("#config-warning").textContent = config.load_warning || "";
    fillForm($("#reasoning-form"), { ...config.reasoning, reasoning_effort: config.reasoning.reasoning_effort || "" });
    fillForm($("#embedding-form"), config.embedding);
    $("#embedding-form").dispatchEvent(new Event("sensetree-filled"));
    fillForm($("#app-form"), config.app || {});
    renderMedia(config, fillForm);
    renderPrompts(defaults);
    call("gpu_available").then((g) => { $("#gpu-info").textContent = g.cuda ? `GPU available: ${g.device_name || "CUDA"}` : "No CUDA GPU found: embeddings run on the CPU."; }).catch(() => {});
    call("app_version").then((v) => { $("#app-version").textContent = `SenseTree ${v}`; }).catch(() => {});
    return true;
  } catch (error) { reportError(error, "Could not read the settings"); return false; }
}

export function initSettings() {
  $("#reasoning-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    // refused (a URL with no http://): the verdict names the fix and offers it
    if (!(await saveConfig({ reasoning: { ...v, reasoning_effort: v.reasoning_effort || null } }))) testTyped();
  });
  $("#embedding-form").addEventListener("submit", (e) => { e.preventDefault(); saveConfig({ embedding: formValues(e.target) }, "Saved. A new model re-embeds your files in the background; search keeps using the current index until it is done."); });
  $("#app-form").addEventListener("submit", (e) => { e.preventDefault(); saveConfig({ app: formValues(e.target) }); });
  $("#endpoint-test").addEventListener("click", testTyped); // tests what is typed, saves nothing (models.js)
  initModelPicker();
  const provider = $("#embedding-form").elements.provider;
  const showEndpointFields = () => $("#embedding-form").classList.toggle("local-provider", provider.value !== "endpoint");
  provider.addEventListener("change", showEndpointFields);
  $("#embedding-form").addEventListener("sensetree-filled", showEndpointFields);
  initMcp({ getConfig: () => config, saveConfig, formValues });
  initMedia({ saveConfig, formValues });
  initMemory();
}
