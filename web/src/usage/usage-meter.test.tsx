import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EMPTY_USAGE, type UsageTotals } from "../../../durable-objects/protocol/usage";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { MessageView } from "../chat/MessageView";
import { sumUsage, usagePerAnswer } from "./merge-usage";
import { costWords, usageWords } from "./usage-words";

const priced: UsageTotals = {
  ...EMPTY_USAGE,
  calls: 2,
  inputTokens: 2500,
  outputTokens: 500,
  costUsd: 0.015,
};
const unpriced: UsageTotals = {
  ...EMPTY_USAGE,
  calls: 1,
  inputTokens: 10,
  outputTokens: 5,
  unpricedCalls: 1,
};

describe("the usage meter", () => {
  it("says tokens and cost, and never shows an unknown price as $0", () => {
    expect(usageWords(priced)).toBe("2,500 in · 500 out tokens · $0.0150");
    expect(costWords({ costUsd: 0.0042, unpricedCalls: 0 })).toBe("$0.0042");
    expect(usageWords(unpriced)).toBe("10 in · 5 out tokens · cost unknown");
    expect(costWords(sumUsage([priced, unpriced]))).toBe("≥ $0.0150 (1 call without a price)");
  });

  it("says how many calls' figures are estimates (cut short before the provider's count)", () => {
    const cutOff: UsageTotals = { ...priced, calls: 1, estimatedCalls: 1 };
    expect(usageWords(cutOff)).toBe("2,500 in · 500 out tokens (1 call estimated) · $0.0150");
    const total = sumUsage([cutOff, priced, { ...cutOff }]);
    expect(usageWords(total)).toBe("7,500 in · 1,500 out tokens (2 calls estimated) · $0.0450");
  });

  it("says how many calls came without a usage report (their tokens are in no figure)", () => {
    const silent: UsageTotals = { ...EMPTY_USAGE, calls: 1, costUsd: 0, unreportedCalls: 1 };
    expect(usageWords(silent)).toBe(
      "0 in · 0 out tokens (1 call without a usage report) · cost unknown",
    );
    const cutOff: UsageTotals = { ...priced, calls: 1, estimatedCalls: 1 };
    const total = sumUsage([priced, silent, cutOff, silent]);
    expect(total).toMatchObject({ calls: 5, estimatedCalls: 1, unreportedCalls: 2 });
    expect(usageWords(total)).toBe(
      "5,000 in · 1,000 out tokens (1 call estimated, 2 calls without a usage report) · ≥ $0.0300",
    );
  });

  it("shows an answer's figures while it streams, from the live events", () => {
    const message: TranscriptMessage = {
      id: "a1",
      order: 2,
      role: "assistant",
      status: "streaming",
      content: [{ type: "text", text: "Working…" }],
      activity: {
        step: 1,
        maxSteps: 5,
        callSteps: {},
        progress: {},
        log: [],
        approvals: {},
        usage: priced,
      },
    };
    const html = renderToStaticMarkup(
      <MessageView message={message} usage={priced} onOpenArtifact={() => undefined} />,
    );
    expect(html).toContain("This answer: 2,500 in · 500 out tokens · $0.0150");
    expect(html).toContain('role="status"');
  });

  it("takes the live figures of an answer the API has not caught up with", () => {
    const stored = {
      conversationId: "c1",
      total: priced,
      messages: [
        { messageId: "a1", ...priced },
        { messageId: "a2", ...unpriced },
      ],
      housekeeping: EMPTY_USAGE,
    };
    const merged = usagePerAnswer(
      stored,
      new Map([
        ["a2", { ...unpriced, calls: 2, inputTokens: 30, unpricedCalls: 2 }],
        ["a3", priced],
      ]),
    );
    expect([...merged.keys()]).toEqual(["a1", "a2", "a3"]);
    expect(merged.get("a2")?.inputTokens).toBe(30);
    expect(sumUsage(merged.values())).toMatchObject({ calls: 6, inputTokens: 5030 });
  });
});
