// Settings → MCP servers: the servers (same format as Claude Desktop and Cursor), and for each tool
// whether it runs without asking and why (DESIGN §2a): "read-only" (its server declares it so),
// "always allowed" (the person chose it; removable here, stored in mcpServers.<name>.alwaysAllow) or
// "asks" (every call waits for the person). A server exposing tools that can write is flagged at a glance.

import { call } from "./api.js";
import { $, clear, dialog, h, reportError } from "./ui.js";

let ctx = null; // {getConfig, saveConfig, formValues}

const STATUS = {
  read_only: ["read-only", "Its server declares it read-only: it runs without asking."],
  always: ["always allowed", "You chose Always allow: it runs without asking."],
  asks: ["asks", "It may change things: every call waits for your answer."],
};

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
    const v = ctx.formValues(form);
    const entry = { command: v.command || null, args: lines(v.args), env: pairs(v.env), url: v.url || null, headers: pairs(v.headers), enabled: server.enabled ?? true };
    if (await ctx.saveConfig({ mcpServers: { [v.name.trim()]: entry } }, "MCP server saved.")) { editor.hidden = true; renderMcp(); }
  });
  editor.append(form);
  editor.hidden = false;
  form.elements.name.focus();
}

async function forgetAlways(name, server, tool) {
  const rest = (server.alwaysAllow || []).filter((t) => t !== tool);
  if (await ctx.saveConfig({ mcpServers: { [name]: { alwaysAllow: rest } } }, `${tool} will ask before running again.`)) renderMcp();
}

function toolRow(name, server, t) {
  if (t.error) return h("li", { "data-testid": "mcp-tool" }, `⚠️ ${t.error}`);
  const [label, why] = STATUS[t.approval] || STATUS.asks;
  const forget = t.approval === "always"
    ? h("button.btn.small.ghost", { type: "button", "data-testid": "mcp-forget", onclick: () => forgetAlways(name, server, t.tool) }, "Ask again")
    : null;
  return h("li.mcp-tool", { "data-testid": "mcp-tool", "data-tool": t.tool },
    h(`span.badge.approval-${t.approval || "asks"}`, { title: why, "data-testid": "mcp-tool-status" }, label),
    h("span.grow", {}, `🔌 ${t.name} — ${t.description || ""}`), forget);
}

function writeWarning(mine) {
  const writers = mine.filter((t) => !t.error && t.approval !== "read_only");
  if (!writers.length) return null;
  const unasked = writers.filter((t) => t.approval === "always").map((t) => t.tool);
  const asking = writers.length - unasked.length;
  const others = asking ? `; the ${asking === 1 ? "other asks" : "others ask"} first.` : ".";
  const text = `⚠️ ${writers.length} tool(s) can change things: ${writers.map((t) => t.tool).join(", ")}. `
    + (unasked.length ? `${unasked.join(", ")} ${unasked.length === 1 ? "runs" : "run"} without asking because you allowed ${unasked.length === 1 ? "it" : "them"}${others}` : "Each call asks you first.");
  return h("p.banner.warn.small", { "data-testid": "mcp-write-warning" }, text);
}

export async function renderMcp() {
  const config = ctx.getConfig();
  const list = clear($("#mcp-list"));
  const servers = Object.entries(config.mcpServers || {});
  if (!servers.length) { list.append(h("li.muted", {}, "No MCP servers. Add one to give the agent more tools.")); return; }
  let tools = [];
  try { tools = await call("list_mcp_tools"); } catch (error) { reportError(error, "Could not list MCP tools"); }
  for (const [name, server] of servers) {
    const mine = tools.filter((t) => t.server === name);
    const toggle = h("input", { type: "checkbox", checked: server.enabled !== false, "aria-label": `Enable ${name}` });
    toggle.addEventListener("change", async () => { await ctx.saveConfig({ mcpServers: { [name]: { enabled: toggle.checked } } }); renderMcp(); });
    list.append(h("li", { "data-testid": "mcp-server", "data-server": name }, toggle,
      h("div.grow.mcp-name", {}, h("strong", {}, name), h("div.mono.small.muted", { "data-testid": "mcp-command" }, server.url || [server.command, ...(server.args || [])].join(" "))),
      h("button.btn.small", { type: "button", "data-testid": "mcp-edit", onclick: () => mcpEditor(name, server) }, "Edit"),
      h("button.btn.small.danger-outline", { type: "button", "data-testid": "mcp-remove", onclick: () => removeMcp(name) }, "Remove"),
      writeWarning(mine),
      h("ul.mcp-tools", {}, mine.length ? mine.map((t) => toolRow(name, server, t)) : h("li", {}, server.enabled === false ? "Disabled." : "No tools reported."))));
  }
}

async function removeMcp(name) {
  if (!(await dialog({ title: `Remove ${name}?`, body: "The agent will no longer see its tools.", ok: "Remove", danger: true }))) return;
  if (await ctx.saveConfig({ mcpServers: { [name]: null } }, "MCP server removed.")) renderMcp();
}

/** Wire the section; `getConfig()` returns the latest settings, `saveConfig(patch, message)` saves. */
export function initMcp(context) {
  ctx = context;
  $("#mcp-add").addEventListener("click", () => mcpEditor());
}
