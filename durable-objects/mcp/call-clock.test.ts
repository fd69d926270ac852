import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { callClock } from "./call-clock";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const limits = { idleMs: 1000, maxTotalMs: 5000, ceilingMessage: "too long in all" };
const reason = (s: AbortSignal) => (s.reason as Error | undefined)?.message;

describe("a tool call's clock", () => {
  it("ends a call that reports nothing for the idle time; progress starts that time again", () => {
    const clock = callClock(new AbortController().signal, limits);
    vi.advanceTimersByTime(900);
    clock.progressed();
    vi.advanceTimersByTime(900);
    expect(clock.signal.aborted).toBe(false);
    vi.advanceTimersByTime(200);
    expect(reason(clock.signal)).toBe("MCP error -32001: Request timed out");
  });

  it("ends a call at its ceiling whatever progress it reports", () => {
    const clock = callClock(new AbortController().signal, limits);
    for (let t = 0; t < 4900; t += 700) {
      vi.advanceTimersByTime(700);
      clock.progressed();
    }
    vi.advanceTimersByTime(200);
    expect(reason(clock.signal)).toBe("MCP error -32001: too long in all");
  });

  it("stands still while the user is asked, and the ceiling counts only the time before and after", () => {
    const clock = callClock(new AbortController().signal, limits);
    vi.advanceTimersByTime(800);
    const release = clock.hold();
    vi.advanceTimersByTime(60_000);
    expect(clock.signal.aborted).toBe(false);
    release();
    // The idle time starts again in full once the answer is back.
    vi.advanceTimersByTime(900);
    expect(clock.signal.aborted).toBe(false);
    for (let t = 0; t < 3300; t += 500) {
      clock.progressed();
      vi.advanceTimersByTime(500);
    }
    // 800 ms before the hold + 4200 after = the 5 s ceiling.
    expect(reason(clock.signal)).toBe("MCP error -32001: too long in all");
  });

  it("passes the caller's abort on, and stops counting once disposed", () => {
    const caller = new AbortController();
    const clock = callClock(caller.signal, limits);
    caller.abort(new Error("the user cancelled"));
    expect(reason(clock.signal)).toBe("the user cancelled");
    const other = callClock(new AbortController().signal, limits);
    other.dispose();
    vi.advanceTimersByTime(10_000);
    expect(other.signal.aborted).toBe(false);
  });
});
