// Settings: the reasoning endpoint (with a Test button and a clear verdict), the embedding device, the
// prompts with their defaults and reset, MCP servers and their tools, the agent's memory, the history
// of plans (with Undo) and the trash (with Restore). Every change is a deep-merged patch (set_config);
// secrets come back masked and are kept when the mask is sent back unchanged.

import { call } from "./api.js";
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

function lines(text) { return text.split("\n").map((l) => l.trim()).filter(Boolean); }
function pairs(text) { return Object.fromEntries(lines(text).map((l) => [l.split("=")[0].trim(), l.slice(l.indexOf("=") + 1).trim()]).filter(([k]) => k)); }
function unpairs(obj) { return Object.entries(obj || {}).map(([k, v]) => `${k}=${v}`).join("\n"); }

function mcpEditor(name = "", server = {}) {
  const editor = clear($("#mcp-editor"));
  const form = h("form.form-grid", { "aria-label": "MCP server" },
    h("label", {}, "Name", h("input", { name: "name", type: "text", value: name, required: true, spellcheck: "false", readonly: name ? true : null })),
    h("label", {}, "Command (stdio)", h("input", { name: "command", type: "text", value: server.command || "", placeholder: "uvx", spellcheck: "false" })),
    h("label.wide", {}, "Arguments, one per line", h("textarea", { name: "args", rows: 2 })),
    h("label", {}, "Environment (KEY=value per line)", h("textarea", { name: "env", rows: 2 })),
    h("label", {}, "or URL (HTTP)", h("input", { name: "url", type: "url", value: server.url || "", placeholder: "http://127.0.0.1:8000/mcp" })),
    h("label.wide", {}, "Headers (Name=value per line)", h("textarea", { name: "headers", rows: 2 })),
    h("div.form-actions", {}, h("button.btn.primary", { type: "submit" }, "Save server"), h("button.btn", { type: "button", onclick: () => { editor.hidden = true; } }, "Cancel")));
  form.elements.args.value = (server.args || []).join("\n");
  form.elements.env.value = unpairs(server.env);
  form.elements.headers.value = unpairs(server.headers);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const v = formValues(form);
    const entry = { command: v.command || null, args: lines(v.args), env: pairs(v.env), url: v.url || null, headers: pairs(v.headers), enabled: server.enabled ?? true };
    if (await saveConfig({ mcpServers: { [v.name.trim()]: entry } }, "MCP server saved.")) { editor.hidden = true; renderMcp(); }
  });
  editor.append(form);
  editor.hidden = false;
  form.elements.name.focus();
}

async function renderMcp() {
  const list = clear($("#mcp-list"));
  const servers = Object.entries(config.mcpServers || {});
  if (!servers.length) { list.append(h("li.muted", {}, "No MCP servers. Add one to give the agent more tools.")); return; }
  let tools = [];
  try { tools = await call("list_mcp_tools"); } catch (error) { reportError(error, "Could not list MCP tools"); }
  for (const [name, server] of servers) {
    const mine = tools.filter((t) => t.server === name);
    const toggle = h("input", { type: "checkbox", checked: server.enabled !== false, "aria-label": `Enable ${name}` });
    toggle.addEventListener("change", async () => { await saveConfig({ mcpServers: { [name]: { enabled: toggle.checked } } }); renderMcp(); });
    list.append(h("li", {}, toggle, h("div.grow", {}, h("strong", {}, name), h("div.mono.small.muted", {}, server.url || [server.command, ...(server.args || [])].join(" "))),
      h("button.btn.small", { type: "button", onclick: () => mcpEditor(name, server) }, "Edit"),
      h("button.btn.small.danger-outline", { type: "button", onclick: () => removeMcp(name) }, "Remove"),
      h("ul.mcp-tools", {}, mine.length ? mine.map((t) => h("li", {}, t.error ? `⚠️ ${t.error}` : `🔌 ${t.name} — ${t.description || ""}`)) : h("li", {}, server.enabled === false ? "Disabled." : "No tools reported."))));
  }
}

async function removeMcp(name) {
  if (!(await dialog({ title: `Remove ${name}?`, body: "The agent will no longer see its tools.", ok: "Remove", danger: true }))) return;
  if (await saveConfig({ mcpServers: { [name]: null } }, "MCP server removed.")) renderMcp();
}

async function renderMemory() {
  const list = clear($("#memory-list"));
  try {
    const notes = await call("agent_memory_list");
    if (!notes.length) list.append(h("li.muted", {}, "The assistant has not saved any notes yet."));
    for (const note of notes) {
      list.append(h("li", {}, h("span.grow", {}, note.note), h("span.muted.small", {}, formatTime(note.created_at)),
        h("button.btn.small.ghost", { type: "button", "aria-label": `Forget: ${note.note}`, onclick: async () => { await call("agent_memory_delete", { id: note.id }).catch(reportError); renderMemory(); } }, "Forget")));
    }
  } catch (error) { reportError(error, "Could not read the memory"); }
}

async function renderHistory() {
  const list = clear($("#history-list"));
  try {
    const txns = await call("list_transactions");
    if (!txns.length) list.append(h("li.muted", {}, "No plans yet."));
    for (const t of txns) {
      const undo = t.status === "committed" ? h("button.btn.small", { type: "button", onclick: () => undoTxn(t.transaction_id) }, "Undo") : null;
      list.append(h("li", { "data-testid": "history-item" }, h(`span.badge.${t.status}`, {}, t.status), h("span.grow", {}, t.summary || t.transaction_id),
        h("span.muted.small", {}, formatTime(t.committed_at || t.created_at)), undo));
    }
  } catch (error) { reportError(error, "Could not read the history"); }
}

async function undoTxn(id) {
  try { const r = await call("undo_transaction", { transaction_id: id }); toast(r.message || "Undone."); } catch (error) { reportError(error, "Could not undo"); }
  renderHistory(); renderTrash();
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

export async function loadSettings() {
  try {
    config = await call("get_config");
    const defaults = await call("get_default_prompts");
    $("#config-warning").hidden = !config.load_warning;
    $("#config-warning").textContent = config.load_warning || "";
    fillForm($("#reasoning-form"), { ...config.reasoning, reasoning_effort: config.reasoning.reasoning_effort || "" });
    fillForm($("#embedding-form"), config.embedding);
    $("#embedding-form").dispatchEvent(new Event("sensetree-filled"));
    fillForm($("#app-form"), config.app || {});
    renderPrompts(defaults);
    call("gpu_available").then((g) => { $("#gpu-info").textContent = g.cuda ? `GPU available: ${g.device_name || "CUDA"}` : "No CUDA GPU found: embeddings run on the CPU."; }).catch(() => {});
    call("app_version").then((v) => { $("#app-version").textContent = `SenseTree ${v}`; }).catch(() => {});
  } catch (error) { reportError(error, "Could not read the settings"); return; }
  renderMcp(); renderMemory(); renderHistory(); renderTrash();
}

export function initSettings() {
  $("#reasoning-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    saveConfig({ reasoning: { ...v, reasoning_effort: v.reasoning_effort || null } });
  });
  $("#embedding-form").addEventListener("submit", (e) => { e.preventDefault(); saveConfig({ embedding: formValues(e.target) }, "Saved. A new model re-embeds your files in the background; search keeps using the current index until it is done."); });
  $("#app-form").addEventListener("submit", (e) => { e.preventDefault(); saveConfig({ app: formValues(e.target) }); });
  $("#endpoint-test").addEventListener("click", testTyped); // tests what is typed, saves nothing (models.js)
  initModelPicker();
  const provider = $("#embedding-form").elements.provider;
  const showEndpointFields = () => $("#embedding-form").classList.toggle("local-provider", provider.value !== "endpoint");
  provider.addEventListener("change", showEndpointFields);
  $("#embedding-form").addEventListener("sensetree-filled", showEndpointFields);
  $("#mcp-add").addEventListener("click", () => mcpEditor());
  $("#memory-clear").addEventListener("click", async () => {
    if (!(await dialog({ title: "Forget everything?", body: "Every note the assistant saved will be deleted.", ok: "Clear memory", danger: true }))) return;
    try { await call("agent_memory_clear"); renderMemory(); } catch (error) { reportError(error, "Could not clear the memory"); }
  });
}
