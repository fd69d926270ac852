// The note of the model call under way is what a restart counts the call from: it must name the
// model the call was sent to, never the one the step before fell back to.
import { expect, it } from "vitest";
import { call, lookupDeps, LOOKUP, runScripted, say, stop } from "../loop/test/scripted-loop";
import type { CallUnderWay, LoopDeps } from "../loop/types";
import type { ModelProvider, StreamEvent } from "../providers/types";
import { CallAttempts } from "./call-attempts";

const provider = (id: ModelProvider["id"], events: (step: number) => StreamEvent[]) => {
  let calls = 0;
  return {
    id,
    stream: async function* () {
      yield* events(++calls);
    },
  } satisfies ModelProvider;
};

it("notes a step's call under the model it goes to, not the model the step before fell back to", async () => {
  const notes: (CallUnderWay | null)[] = [];
  const attempts = new CallAttempts((note) => void notes.push(note));
  // The conversation's own model is down on step 1 only; the route falls back to Ollama then.
  const own = provider("anthropic", (n) =>
    n === 1
      ? [{ type: "error", error: { code: "network", message: "down", retryable: true } }]
      : [say("The answer is 42."), { type: "usage", inputTokens: 900, outputTokens: 20 }, stop],
  );
  const local = provider("ollama", () => [
    call("c1", "kb__lookup", {}),
    { type: "usage", inputTokens: 800, outputTokens: 10 },
    { type: "finish", reason: "tool_calls" },
  ]);
  const askOnce = attempts.wrap((p, r) => p.stream(r));
  // A route in small: the own model first, and on a failure before any output, the local one.
  const routed: LoopDeps["stream"] = async function* (_p, request) {
    let down = false;
    for await (const event of askOnce(own, { ...request, model: "claude-haiku-4-5" })) {
      if (event.type === "error") down = true;
      else yield event;
    }
    if (down) yield* askOnce(local, { ...request, model: "llama3.2" });
  };
  const { outcome } = await runScripted({
    tools: [LOOKUP],
    steps: [],
    deps: {
      ...lookupDeps(),
      stream: attempts.call(routed),
      callUnderWay: attempts.callUnderWay,
      attempting: attempts.current,
    },
    input: { model: "claude-haiku-4-5" },
  });
  expect(outcome.status).toBe("complete");

  const noted = notes.flatMap((n) => (n ? [[n.step, n.provider, n.model]] : []));
  // Step 1: sent to the own model, then to the fallback; step 2: to the own model only. A
  // restart while step 2's call was noted would count it at Haiku's price, never at Ollama's.
  expect(noted).toEqual([
    [1, "anthropic", "claude-haiku-4-5"],
    [1, "ollama", "llama3.2"],
    [2, "anthropic", "claude-haiku-4-5"],
  ]);
});
