// Call ids a provider reuses across answers get a suffix, so each call keeps its own record.
import { describe, expect, it } from "vitest";
import { memoryLog } from "./test/scripted-loop";
import type { LoopState, PlannedToolCall } from "./types";
import { unusedCallId } from "./unused-call-id";

/** The in-memory log holding `ids`; `reads` counts its lookups. */
const recorded = (ids: string[], reads = { n: 0 }) => {
  const log = memoryLog();
  for (const id of ids) log.start({ id, key: id, server: "s", tool: "t", arguments: {} }, "t1", 1);
  const counted =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A) => {
      reads.n++;
      return f(...a);
    };
  return { calls: { ...log, find: counted(log.find), idsLike: counted(log.idsLike) } };
};
const history = (ids: string[]): Pick<LoopState, "messages"> => ({
  messages: [
    {
      role: "assistant",
      content: ids.map((id) => ({ type: "tool_call", id, name: "t", arguments: {} })),
    },
  ],
});
const planned = (id: string): PlannedToolCall => ({ id, name: "t", arguments: {} });

describe("a call id the conversation has met before", () => {
  it("is kept when new", () => {
    expect(unusedCallId("call_0", recorded([]), history([]), [])).toBe("call_0");
  });

  it("gets the first free suffix when an earlier turn, the history or this step used it", () => {
    expect(unusedCallId("call_0", recorded(["call_0"]), history([]), [])).toBe("call_0_2");
    expect(unusedCallId("call_0", recorded(["call_0"]), history(["call_0_2"]), [])).toBe(
      "call_0_3",
    );
    expect(unusedCallId("call_0", recorded([]), history([]), [planned("call_0")])).toBe("call_0_2");
  });

  it("reads the log once however many earlier turns took the id", () => {
    // A server that numbers every answer's calls from 0, 300 turns on: call_0, call_0_2 … call_0_300.
    const earlier = ["call_0", ...Array.from({ length: 299 }, (_, i) => `call_0_${i + 2}`)];
    const reads = { n: 0 };
    const log = recorded([...earlier, "call_01", "call_1"], reads);
    expect(unusedCallId("call_0", log, history(earlier), [])).toBe("call_0_301");
    expect(reads.n).toBe(1);
  });

  it("does not count an id that only starts like it", () => {
    expect(unusedCallId("call_0", recorded(["call_01", "call_0x"]), history(["call_00"]), [])).toBe(
      "call_0",
    );
  });
});
