// Settings → Pictures and sound: the vision endpoint that captions photos and the transcription endpoint
// that transcribes recordings (issue 33). Both are off while their address is empty; the page says what
// is sent where. Test connection tests what is typed (a made-up sample is sent, nothing is saved).

import { call } from "./api.js";
import { $ } from "./ui.js";

const KINDS = ["vision", "transcription"];

function showVerdict(kind, ok, message) {
  const verdict = $(`[data-testid="${kind}-verdict"]`);
  verdict.className = `verdict ${ok ? "ok" : "error"}`;
  verdict.textContent = `${ok ? "✓" : "✗"} ${message}${ok ? " Not saved yet: press Save to keep it." : ""}`;
}

async function testTyped(kind) {
  const form = $(`#${kind}-form`);
  const verdict = $(`[data-testid="${kind}-verdict"]`);
  verdict.className = "verdict"; verdict.textContent = "Testing…";
  const { base_url, api_key, model } = form.elements;
  try {
    const result = await call("test_media_endpoint", { kind, base_url: base_url.value, api_key: api_key.value, model: model.value });
    showVerdict(kind, result.ok, result.message);
  } catch (error) {
    showVerdict(kind, false, error.message);
  }
}

/** Fill both forms from the settings the page read. */
export function renderMedia(config, fillForm) {
  for (const kind of KINDS) fillForm($(`#${kind}-form`), config[kind] || {});
}

/** Wire Save and Test connection of both forms. */
export function initMedia({ saveConfig, formValues }) {
  for (const kind of KINDS) {
    $(`#${kind}-form`).addEventListener("submit", (e) => { e.preventDefault(); saveConfig({ [kind]: formValues(e.target) }); });
    $(`[data-testid="${kind}-test"]`).addEventListener("click", () => testTyped(kind));
  }
}
