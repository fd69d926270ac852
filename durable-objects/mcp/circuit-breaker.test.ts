import { describe, expect, it } from "vitest";
import { breakerAllows, closedBreaker, recordFailure, recordSuccess } from "./circuit-breaker";

describe("circuit breaker", () => {
  const opts = { threshold: 3, cooldownMs: 1000 };
  it("opens after three failures in a row, skips during the cool-down, then allows one trial", () => {
    let s = closedBreaker();
    s = recordFailure(s, 0, opts);
    s = recordFailure(s, 10, opts);
    expect(breakerAllows(s, 20, opts)).toEqual({ allow: true });
    s = recordFailure(s, 30, opts);
    expect(breakerAllows(s, 500, opts)).toEqual({ allow: false, retryInMs: 530 });
    expect(breakerAllows(s, 1030, opts)).toEqual({ allow: true });
    // The trial fails: open again for a full cool-down.
    s = recordFailure(s, 1100, opts);
    expect(breakerAllows(s, 1500, opts).allow).toBe(false);
    // The next trial succeeds: closed.
    s = recordSuccess(s);
    expect(breakerAllows(s, 2200, opts)).toEqual({ allow: true });
    expect(s.failures).toBe(0);
  });

  it("a success between failures resets the count", () => {
    let s = recordFailure(recordFailure(closedBreaker(), 0, opts), 1, opts);
    s = recordSuccess(s);
    s = recordFailure(s, 2, opts);
    expect(breakerAllows(s, 3, opts).allow).toBe(true);
  });
});
