import { describe, expect, it } from "vitest";
import { formatDuration, spanOf } from "./durations";

describe("durations", () => {
  it("says how long in the unit a person expects", () => {
    expect(formatDuration(420)).toBe("420 ms");
    expect(formatDuration(1450)).toBe("1.4 s");
    expect(formatDuration(12_400)).toBe("12 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatDuration(120_000)).toBe("2 min");
  });

  it("measures a step from its first call's start to its last call's end", () => {
    expect(
      spanOf([
        { startedAt: 1000, endedAt: 1800 },
        { startedAt: 1100, endedAt: 2500 },
      ]),
    ).toBe(1500);
    // Still running, or times not known (an answer loaded after it finished): nothing to say.
    expect(spanOf([{ startedAt: 1000 }])).toBeNull();
    expect(spanOf([{ startedAt: 1000, endedAt: 1200 }, undefined])).toBeNull();
    expect(spanOf([])).toBeNull();
  });
});
