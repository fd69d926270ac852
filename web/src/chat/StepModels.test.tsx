// The timeline of a routed answer: the step_model events, folded by the shared transcript, drawn
// as their own items (model served, fallbacks and why).
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { applyEvent, emptyTranscript } from "../../../durable-objects/protocol/transcript";
import type { NewServerEvent, ServerEvent } from "../../../durable-objects/protocol/wire";
import { MessageView } from "./MessageView";

function answerOf(events: NewServerEvent[]) {
  const t = events
    .map((e, i) => ({ ...e, seq: i + 1, at: 0 }) as ServerEvent)
    .reduce(applyEvent, emptyTranscript());
  return t.messages.find((m) => m.role === "assistant")!;
}

const turn: NewServerEvent[] = [
  {
    type: "turn_started",
    turnId: "t1",
    messageId: "a1",
    order: 2,
    userMessageId: "u1",
    provider: "ollama",
    model: "llama3.2:latest",
  },
  { type: "step_started", turnId: "t1", step: 1, maxSteps: 5 },
  {
    type: "step_model",
    turnId: "t1",
    step: 1,
    provider: "ollama",
    model: "llama3.2:latest",
    failed: [],
  },
  { type: "step_started", turnId: "t1", step: 2, maxSteps: 5 },
  {
    type: "step_model",
    turnId: "t1",
    step: 2,
    provider: "anthropic",
    model: "claude-haiku-4-5",
    failed: [
      {
        provider: "ollama",
        model: "llama3.2:latest",
        reason: "The connection to Ollama failed.",
      },
    ],
  },
];

const render = (events: NewServerEvent[]) =>
  renderToStaticMarkup(<MessageView message={answerOf(events)} onOpenArtifact={() => undefined} />);

describe("the models of a routed answer in the timeline", () => {
  it("names the model that served each step, and for a fallback the model that failed and why", () => {
    const html = render(turn);
    expect(html.split('data-testid="step-model"')).toHaveLength(3);
    expect(html).toContain(
      '<li data-testid="step-model" data-fell-back="false"><span class="muted">Step 1:</span> Ollama (llama3.2:latest)</li>',
    );
    expect(html).toMatch(
      /data-fell-back="true"><span class="muted">Step 2:<\/span> Anthropic \(claude-haiku-4-5\).*fallback.*Ollama \(llama3\.2:latest\) could not answer: The connection to Ollama failed\./,
    );
  });

  it("draws nothing for an answer without a route", () => {
    const html = render(turn.filter((e) => e.type !== "step_model"));
    expect(html).not.toContain("step-model");
  });
});
