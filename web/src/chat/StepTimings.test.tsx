// @vitest-environment jsdom
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountInPage } from "../test-page";
import type { StepTimings } from "../../../durable-objects/protocol/timings";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { MessageView } from "./MessageView";

let root: Root;
let host: HTMLElement;

const stepOne: StepTimings = {
  step: 1,
  queuedMs: 12,
  catalogMs: 80,
  model: [
    {
      provider: "anthropic",
      model: "claude-haiku-4-5",
      firstTokenMs: 1460,
      streamMs: 30,
      retries: [{ attempt: 1, code: "overloaded", waitMs: 1000 }],
    },
  ],
  tools: [
    { callId: "t1", server: "everything", tool: "long", latencyMs: 1020 },
    { callId: "t2", server: "notes", tool: "list_notes", latencyMs: 40 },
    { callId: "t3", server: "notes", tool: "list_notes", latencyMs: 60 },
  ],
  servers: [
    { server: "everything", calls: 1, totalMs: 1020, maxMs: 1020 },
    { server: "notes", calls: 2, totalMs: 100, maxMs: 60 },
  ],
  checkpointMs: 4,
  pausedMs: 0,
  totalMs: 2600,
};
const answerStep: StepTimings = {
  step: 1,
  answer: true,
  model: [
    {
      provider: "anthropic",
      model: "claude-haiku-4-5",
      firstTokenMs: null,
      streamMs: 0,
      retries: [],
    },
  ],
  tools: [],
  servers: [],
  checkpointMs: 2,
  pausedMs: 65_000,
  totalMs: 66_000,
};

const message: TranscriptMessage = {
  id: "a1",
  order: 2,
  role: "assistant",
  status: "complete",
  content: [{ type: "text", text: "Done." }],
  activity: {
    step: 1,
    maxSteps: 5,
    callSteps: {},
    progress: {},
    log: [],
    approvals: {},
    stepTimings: [stepOne, answerStep],
  },
};

function show(m: TranscriptMessage) {
  ({ host, root } = mountInPage());
  act(() => root.render(<MessageView message={m} onOpenArtifact={() => {}} />));
}

const steps = () => [...host.querySelectorAll<HTMLDetailsElement>("[data-testid=step-timings]")];

describe("the timeline's step timings", () => {
  it("shows one line per step with its total; expanding a step shows its phases in order", () => {
    show(message);
    expect(steps().map((d) => d.querySelector("summary")!.textContent)).toEqual([
      "Step 1 took 2.6 s",
      "Answer after step 1 took 1 min 6 s",
    ]);
    expect(steps().map((d) => d.open)).toEqual([false, false]);

    act(() => steps()[0]!.querySelector("summary")!.click());
    expect(steps()[0]!.open).toBe(true);
    const phases = [...steps()[0]!.querySelectorAll("li")].map((li) => li.textContent);
    expect(phases).toEqual([
      "Queued: 12 ms",
      "Listing tools: 80 ms",
      "Model: claude-haiku-4-5: first token after 1.5 s, streamed for 30 ms, retry 1 after overloaded (waited 1.0 s)",
      "Tools on everything: 1 call, 1.0 s",
      "Tools on notes: 2 calls, 100 ms in all, slowest 60 ms",
      "Checkpoints: 4 ms",
    ]);

    const answerPhases = [...steps()[1]!.querySelectorAll("li")].map((li) => li.textContent);
    expect(answerPhases).toEqual([
      "Model: claude-haiku-4-5: no tokens, streamed for 0 ms",
      "Paused (approval or restart): 1 min 5 s",
      "Checkpoints: 2 ms",
    ]);
  });

  it("shows nothing before a step has ended", () => {
    show({ ...message, activity: { ...message.activity!, stepTimings: [] } });
    expect(steps()).toEqual([]);
    expect(host.querySelector("[aria-label='Step timings']")).toBeNull();
  });
});
