// A turn whose history was fitted to the window says in its prompt how many earlier messages were
// left out; resumed from its checkpoint (after a restart) it must still say so.
import { expect, it } from "vitest";
import type { NeutralMessage } from "../providers/types";
import { runThinkingLoop } from "./loop";
import { omittedNote } from "./context-fit";
import { lookupThenAnswer as steps, resumableLoop } from "./test/resumable-loop";
import type { LoopInput } from "./types";

const say = (text: string): NeutralMessage => ({ role: "user", content: [{ type: "text", text }] });

it("a resumed turn's prompt still names the earlier messages left out", async () => {
  const input: LoopInput = {
    turnId: "t",
    messageId: "m",
    model: "gemini-3-pro",
    system: "s",
    history: [say("first"), say("second"), say("look it up")],
    maxSteps: 3,
    maxTokens: 100,
    signal: new AbortController().signal,
  };
  // The window holds only the newest message: the two before it are left out. The process
  // stops after the first step: the model is never asked a second time.
  const first = resumableLoop({ steps, keep: 1, stopAt: 1 });
  await runThinkingLoop(first.deps, input).catch(() => undefined);
  const afterFirstStep = first.checkpoints.filter((c) => c.step === 1 && !c.pending).at(-1);
  expect(afterFirstStep).toBeDefined();

  const next = resumableLoop({ steps, keep: 1, from: 1 });
  const resumed = await runThinkingLoop(next.deps, input, afterFirstStep);
  expect(resumed.status).toBe("complete");
  const systems = [...first.requests, ...next.requests].map((r) => r.system ?? "");
  expect(systems).toHaveLength(2);
  expect(systems[0]).toContain(omittedNote(2));
  expect(systems[1]).toContain(omittedNote(2));
});
