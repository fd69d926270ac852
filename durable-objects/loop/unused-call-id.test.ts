// Call ids a provider reuses across answers get a suffix, so each call keeps its own record.
import { describe, expect, it } from "vitest";
import type { LoopState, PlannedToolCall, ToolCallRecord } from "./types";
import { unusedCallId } from "./unused-call-id";

const recorded = (ids: string[]) => ({
  calls: {
    find: (id: string) => (ids.includes(id) ? ({ id } as ToolCallRecord) : null),
    findDone: () => null,
    start: () => undefined,
    finish: () => undefined,
  },
});
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
});
