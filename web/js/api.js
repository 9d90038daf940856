// The page's only door to the engine. Inside the desktop window it calls pywebview's js_api (positional
// arguments, so the parameter order of every command is written down below and pinned by a Python test
// against bridge.Api); in a browser it POSTs to `sensetree serve` with the session token. Either way a
// command resolves to its data or rejects with an ApiError carrying the engine's stable error code.
// The session token comes only from the link `sensetree serve` printed: it is kept in sessionStorage
// (this tab only) and sent in a header, and in the query of the event stream (EventSource cannot send
// headers). Never a cookie: browsers send cookies to every port of 127.0.0.1.

export const SIGNATURES = {
  chat_with_assistant: ["messages", "scope", "conversation_id"],
  plan_reorganization: ["instruction", "scope"],
  apply_action_plan: ["transaction_id", "operations"],
  discard_action_plan: ["transaction_id"],
  approve_tool_call: ["call_id", "decision"],
  list_pending_tool_calls: [],
  list_transactions: [],
  undo_transaction: ["transaction_id"],
  trash_list: [],
  trash_restore: ["item_id", "target_path"],
  agent_memory_list: [],
  agent_memory_delete: ["id"],
  agent_memory_clear: [],
  agent_memory_confirm: ["id"],
  qualify_file: ["path"],
  qualify_folder: ["path"],
  set_file_summary: ["path", "summary"],
  read_semantics: ["path", "recursive"],
  get_roots: [],
  add_indexed_folder: ["path"],
  remove_indexed_folder: ["path"],
  pick_folder: [],
  indexing_stats: [],
  indexing_queue: ["limit"],
  set_indexing_paused: ["paused"],
  reindex_path: ["path"],
  retry_indexing: ["path"],
  semantic_search: ["query", "scope", "limit"],
  keyword_search: ["query", "scope", "limit"],
  list_directory: ["path"],
  path_details: ["path"],
  file_thumbnail: ["path"],
  open_path: ["path", "reveal"],
  get_config: [],
  set_config: ["patch"],
  get_default_prompts: [],
  test_chat_endpoint: ["base_url", "api_key", "model"],
  test_media_endpoint: ["kind", "base_url", "api_key", "model"],
  list_mcp_tools: [],
  gpu_available: [],
  app_version: [],
  list_conversations: ["query"],
  get_conversation: ["conversation_id"],
  rename_conversation: ["conversation_id", "title"],
  delete_conversation: ["conversation_id"],
  stop_chat: ["conversation_id"],
  list_models: ["base_url", "api_key"],
  analyze_directory: ["path"],
  gardener_health: [],
  semantic_tree: ["query", "scope", "limit"],
  propose_gardener_fix: ["path", "kind", "keep"],
};

export const EVENT_TOPICS = ["agent-step", "answer-delta", "indexing-progress", "notice", "agent-result", "tool-approval", "chat-turn", "gardener-report", "agent-thinking"];

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const TOKEN_KEY = "sensetree-token";
const query = new URLSearchParams(location.search);
const token = query.get("token") || sessionStorage.getItem(TOKEN_KEY);
if (query.get("token")) {
  sessionStorage.setItem(TOKEN_KEY, query.get("token"));
  history.replaceState(null, "", location.pathname); // keep the secret out of the address bar
}

/** "http" against `sensetree serve`, "window" inside the desktop app. */
export const mode = token ? "http" : "window";

const NO_SESSION = "This page has no session token. Open the link that `sensetree serve` printed.";
const BROWSER_WAIT_MS = 5000; // a page served over HTTP without a token is a browser tab, unless pywebview appears

const pywebviewReady = new Promise((resolve, reject) => {
  if (mode !== "window") return;
  if (window.pywebview && window.pywebview.api && window.pywebview.api.app_version) resolve();
  else window.addEventListener("pywebviewready", () => resolve(), { once: true });
  if (location.protocol.startsWith("http")) setTimeout(() => reject(new ApiError("forbidden", NO_SESSION)), BROWSER_WAIT_MS);
});
pywebviewReady.catch(() => {}); // reported by each call instead

function abortError() {
  return new DOMException("The request was stopped.", "AbortError");
}

async function callWindow(command, args, signal) {
  await pywebviewReady;
  const positional = SIGNATURES[command].map((name) => (args[name] === undefined ? null : args[name]));
  while (positional.length && positional[positional.length - 1] === null) positional.pop();
  const call = window.pywebview.api[command](...positional);
  if (!signal) return call;
  return Promise.race([
    call,
    new Promise((_, reject) => signal.addEventListener("abort", () => reject(abortError()), { once: true })),
  ]);
}

async function callHttp(command, args, signal) {
  const response = await fetch(`/api/${command}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-SenseTree-Token": token },
    body: JSON.stringify(args),
    signal,
  });
  if (response.status === 403) throw new ApiError("forbidden", "This page's session has ended. Open the link that `sensetree serve` printed.");
  return response.json(); // every other status (400, 404, 408 …) carries the envelope
}

/** Run an IPC command; resolves to its data, rejects with ApiError (or an AbortError when stopped). */
export async function call(command, args = {}, { signal } = {}) {
  if (!(command in SIGNATURES)) throw new ApiError("invalid_input", `Unknown command ${command}`);
  const clean = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));
  let envelope;
  try {
    envelope = mode === "http" ? await callHttp(command, clean, signal) : await callWindow(command, clean, signal);
  } catch (error) {
    if (error.name === "AbortError" || error instanceof ApiError) throw error;
    throw new ApiError("unreachable", `SenseTree did not answer (${error.message}). Is it still running?`);
  }
  if (!envelope || envelope.ok !== true) {
    const e = (envelope && envelope.error) || {};
    throw new ApiError(e.code || "internal", e.message || "Something went wrong.");
  }
  return envelope.data;
}

const listeners = new Map(EVENT_TOPICS.map((t) => [t, new Set()]));

function dispatch(topic, payload) {
  for (const handler of listeners.get(topic) || []) {
    try { handler(payload || {}); } catch (error) { console.error(`handler for ${topic} failed`, error); }
  }
}

/** Listen to an engine event; returns a function that stops listening. */
export function on(topic, handler) {
  listeners.get(topic).add(handler);
  return () => listeners.get(topic).delete(handler);
}

function connectEvents() {
  if (mode === "window") {
    window.addEventListener("sensetree-event", (e) => dispatch(e.detail.topic, e.detail.payload));
    return;
  }
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  for (const topic of EVENT_TOPICS) {
    source.addEventListener(topic, (e) => dispatch(topic, JSON.parse(e.data)));
  }
}

connectEvents();
