// The model's thinking, live (issue 36): a collapsed "Thinking" step in the running turn's trace that
// grows as `agent-thinking` deltas arrive, one step per stretch of thinking, in order with the tool
// steps. The engine never stores thinking nor puts it in the answer, so the step lives only in this
// view of the turn: `keepThinking` puts it back after the finished trace is drawn.
import { h } from "./ui.js";

function lastItem(trace) {
  const items = trace.querySelectorAll(":scope > li");
  return items[items.length - 1] || null;
}

/** Append a thinking delta to the trace's current Thinking step (a new one after a tool step). */
export function thinkingDelta(target, delta) {
  if (!delta) return;
  let step = lastItem(target.trace);
  if (!step || !step.classList.contains("thinking-step")) {
    step = h("li.trace-step.thinking-step", { "data-testid": "thinking-step" },
      h("details.step", {}, h("summary", {}, "💭 Thinking"), h("pre.thinking-text", { "data-testid": "thinking-text" })));
    target.trace.append(step);
  }
  target.trace.hidden = false;
  step.querySelector(".thinking-text").textContent += delta;
}

/** Before the finished trace replaces the live one: a function that puts the Thinking steps back,
 *  each before the tool step it preceded. */
export function keepThinking(target) {
  const kept = [...target.trace.querySelectorAll(":scope > li.thinking-step")].map((li) => {
    let steps = 0;
    for (let el = li.previousElementSibling; el; el = el.previousElementSibling) if (!el.classList.contains("thinking-step")) steps += 1;
    return [li, steps];
  });
  return () => {
    for (const [li, steps] of kept) {
      const others = [...target.trace.querySelectorAll(":scope > li:not(.thinking-step)")];
      target.trace.insertBefore(li, others[steps] || null);
    }
    if (kept.length) target.trace.hidden = false;
  };
}
