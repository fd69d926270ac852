// A viewer's budget lines: the words the loop writes (loop/budgets.ts), without the figures of a
// token or cost budget; time and step budgets are not spending and keep theirs.
import { describe, expect, it } from "vitest";
import { budgetStop, stepCapStop } from "../loop/budgets";
import type { LoopState } from "../loop/types";
import { EMPTY_USAGE } from "./usage";
import { withoutSpending } from "./viewer-view";

const spent = (tokens: number, costUsd: number, elapsedMs = 0) =>
  ({
    messages: [],
    usage: { ...EMPTY_USAGE, calls: 1, inputTokens: tokens, costUsd },
    elapsedMs,
    stepStart: { tokens: 0, costUsd: 0, elapsedMs: 0 },
  }) as unknown as LoopState;

describe("a viewer's budget lines", () => {
  it("keep which budget stopped the answer, without the tokens used or dollars spent", () => {
    const tokens = budgetStop({ tokens: 2000 }, spent(1200, 0))!;
    expect(tokens.message).toContain("1,200 of 2,000");
    expect(withoutSpending(tokens.message)).toBe(
      "Stopped early to stay within this turn's token budget.",
    );
    const cost = budgetStop({ costUsd: 0.05 }, spent(100, 0.03))!;
    expect(withoutSpending(`_${cost.message}_`)).toBe(
      "_Stopped early to stay within this turn's cost budget._",
    );
    const first = budgetStop({ costUsd: 0.05 }, { messages: [] } as unknown as LoopState, {
      tokens: 850,
      costUsd: 0.03,
    })!;
    expect(withoutSpending(first.message)).toBe(
      "Answering without tools to stay within this turn's cost budget.",
    );
  });

  it("keep a time or step budget's figures, which are not spending", () => {
    const time = budgetStop({ wallMs: 60_000 }, spent(0, 0, 59_000))!;
    expect(withoutSpending(time.message)).toBe(time.message);
    expect(withoutSpending(stepCapStop(5).message)).toBe(stepCapStop(5).message);
  });
});
