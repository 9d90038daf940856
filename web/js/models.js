// Choosing the reasoning model: presets for the common servers (base URL only), a model field whose
// suggestions come from the endpoint's /v1/models (Refresh re-reads them; free text still works for a
// server that does not list its models), "Test connection" on what is typed *without saving it*, with
// the engine's hint for the common URL slips and a one-click fix, and the quick switch in the chat
// header that changes the saved model for the next turn.

import { call } from "./api.js";
import { $, clear, h, reportError, toast } from "./ui.js";

export const PRESETS = [
  { id: "ollama", label: "Ollama", base_url: "http://127.0.0.1:11434/v1" },
  { id: "lmstudio", label: "LM Studio", base_url: "http://127.0.0.1:1234/v1" },
  { id: "llamacpp", label: "llama.cpp server", base_url: "http://127.0.0.1:8080/v1" },
  { id: "openai", label: "OpenAI", base_url: "https://api.openai.com/v1" },
  { id: "openrouter", label: "OpenRouter", base_url: "https://openrouter.ai/api/v1" },
  { id: "groq", label: "Groq", base_url: "https://api.groq.com/openai/v1" },
  { id: "mistral", label: "Mistral", base_url: "https://api.mistral.ai/v1" },
];

function typed() {
  const form = $("#reasoning-form");
  return { base_url: form.elements.base_url.value.trim(), api_key: form.elements.api_key.value, model: form.elements.model.value.trim() };
}

function fillOptions(list, models) {
  clear(list);
  for (const id of models) list.append(h("option", { value: id }));
}

/** Read the typed endpoint's models into the model field's suggestions. */
export async function refreshModelList() {
  const status = $("#model-status");
  const { base_url, api_key } = typed();
  status.className = "muted small"; status.textContent = "Reading the endpoint's models…";
  try {
    const models = await call("list_models", { base_url, api_key });
    fillOptions($("#model-options"), models);
    status.textContent = models.length ? `${models.length} model(s) available: pick one or type a name.` : "The endpoint lists no models; type the model name.";
    const input = $("#reasoning-form").elements.model;
    if (!input.value && models.length === 1) input.value = models[0];
    return models;
  } catch (error) {
    status.className = "small verdict error";
    status.textContent = `Could not read the models: ${error.message} You can still type a model name.`;
    return [];
  }
}

function showVerdict(result) {
  const verdict = $("#endpoint-verdict");
  verdict.className = `verdict ${result.ok ? "ok" : "error"}`;
  const tools = result.ok && !result.tools_supported ? " Chat still answers from your files." : "";
  verdict.replaceChildren(`${result.ok ? "✓" : "✗"} ${result.message || ""}${tools} `);
  if (result.suggested_base_url) {
    verdict.append(h("button.btn.small", { type: "button", "data-testid": "use-suggested-url", onclick: () => {
      $("#reasoning-form").elements.base_url.value = result.suggested_base_url;
      testTyped();
    } }, `Use ${result.suggested_base_url}`));
  }
  if (result.ok) verdict.append(h("span.muted.small", {}, " Not saved yet: press Save to keep it."));
}

/** "Test connection": tests what is typed in the form; nothing is saved. */
export async function testTyped() {
  const verdict = $("#endpoint-verdict");
  verdict.className = "verdict"; verdict.textContent = "Testing…";
  try {
    showVerdict(await call("test_chat_endpoint", typed()));
  } catch (error) {
    verdict.className = "verdict error";
    verdict.textContent = `✗ ${error.message}`;
  }
}

function choosePreset(id) {
  const preset = PRESETS.find((p) => p.id === id);
  if (!preset) return;
  $("#reasoning-form").elements.base_url.value = preset.base_url;
  $("#endpoint-verdict").textContent = "";
  refreshModelList();
}

export function initModelPicker() {
  const presets = $("#reasoning-preset");
  presets.append(h("option", { value: "" }, "Choose a preset…"), ...PRESETS.map((p) => h("option", { value: p.id }, `${p.label} — ${p.base_url}`)));
  presets.addEventListener("change", () => { choosePreset(presets.value); presets.value = ""; });
  $("#model-refresh").addEventListener("click", refreshModelList);
}

/** The chat header's model switch: the saved model plus what the endpoint lists. */
export function bindModelSwitch(select) {
  let loaded = false;
  const render = (models, current) => {
    const all = [...new Set([current, ...models].filter(Boolean))];
    select.replaceChildren(...(all.length ? all : [""]).map((id) => h("option", { value: id }, id || "No model set")));
    select.value = current || "";
    select.disabled = !all.length;
  };
  const load = async () => {
    let current = "";
    try {
      const config = await call("get_config");
      current = config.reasoning.model || "";
      render([], current);
      if (!config.reasoning.enabled) { select.title = "The reasoning model is switched off (Settings → Reasoning model)"; return; }
      render(await call("list_models"), current);
      loaded = true;
    } catch { render([], current); }
  };
  select.addEventListener("focus", () => { if (!loaded) load(); });
  select.addEventListener("change", async () => {
    try {
      await call("set_config", { patch: { reasoning: { model: select.value } } });
      toast(`The next answers come from ${select.value}.`);
    } catch (error) { reportError(error, "Could not switch the model"); }
  });
  load();
}
