// A checkpoint keeps only the turn's own messages (loop-storage.ts): resumed from one, the turn is
// sent its history again, assembled and fitted as when it began, then what its steps added.
import { expect, it } from "vitest";
import type { NeutralMessage } from "../providers/types";
import { omittedNote } from "./context-fit";
import { runThinkingLoop } from "./loop";
import { lookupThenAnswer as steps, resumableLoop } from "./test/resumable-loop";
import type { LoopInput, LoopState } from "./types";

const say = (text: string): NeutralMessage => ({ role: "user", content: [{ type: "text", text }] });

const input: LoopInput = {
  turnId: "t",
  messageId: "m",
  model: "m",
  system: "s",
  history: [say("first"), say("second"), say("third"), say("look it up")],
  maxSteps: 3,
  maxTokens: 100,
  signal: new AbortController().signal,
};

it("a turn resumed from a checkpoint without its history asks the model as if it had never stopped", async () => {
  // The window holds the newest three messages of the history.
  const whole = resumableLoop({ steps, keep: 3 });
  expect((await runThinkingLoop(whole.deps, input)).status).toBe("complete");

  const first = resumableLoop({ steps, keep: 3, stopAt: 1 });
  await runThinkingLoop(first.deps, input).catch(() => undefined);
  const afterFirstStep = first.checkpoints.filter((c) => c.step === 1 && !c.pending).at(-1)!;
  // As loop-storage stores it: the turn's own messages (the call and its result), no history.
  expect(afterFirstStep.turnFrom).toBe(3);
  const { turnFrom, ...rest } = afterFirstStep;
  const stored: LoopState = {
    ...rest,
    messages: afterFirstStep.messages.slice(turnFrom),
    historyLeftOut: true,
  };
  expect(stored.messages.map((m) => m.role)).toEqual(["assistant", "tool"]);

  const resumed = resumableLoop({ steps, keep: 3, from: 1 });
  expect((await runThinkingLoop(resumed.deps, input, stored)).status).toBe("complete");
  expect(resumed.requests).toHaveLength(1);
  expect(resumed.requests[0]!.messages).toEqual(whole.requests[1]!.messages);
  expect(resumed.requests[0]!.system).toEqual(whole.requests[1]!.system);
  expect(resumed.requests[0]!.system).toContain(omittedNote(1));
});
