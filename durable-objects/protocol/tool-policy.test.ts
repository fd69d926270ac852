import { describe, expect, it } from "vitest";
import { defaultPolicy, resolvePolicy } from "./tool-policy";

describe("tool policies", () => {
  it("default from the tool's annotations", () => {
    expect(defaultPolicy({ readOnlyHint: true }, false)).toBe("allow");
    expect(defaultPolicy({ readOnlyHint: false, destructiveHint: true }, false)).toBe("ask");
    expect(
      defaultPolicy({ readOnlyHint: false, destructiveHint: false, openWorldHint: true }, false),
    ).toBe("ask");
    expect(
      defaultPolicy({ readOnlyHint: false, destructiveHint: false, openWorldHint: false }, false),
    ).toBe("allow");
    // MCP's own defaults: a tool that is not read-only may destroy and reach the world.
    expect(defaultPolicy({ readOnlyHint: false }, false)).toBe("ask");
    // Our own worker: only what it declares (graph_merge runs, graph_remove asks).
    expect(defaultPolicy({ readOnlyHint: false, destructiveHint: false }, true)).toBe("allow");
    expect(defaultPolicy({ readOnlyHint: false, destructiveHint: true }, true)).toBe("ask");
    expect(defaultPolicy(undefined, false)).toBe("ask");
    expect(defaultPolicy(undefined, true)).toBe("allow");
  });

  it("the conversation's overrides win over the user's, a tool's over its server's", () => {
    const base = {
      server: "notes",
      tool: "delete",
      hints: { destructiveHint: true },
      builtin: false,
    };
    expect(resolvePolicy(base)).toBe("ask");
    expect(resolvePolicy({ ...base, user: { notes: { server: "allow" } } })).toBe("allow");
    expect(
      resolvePolicy({ ...base, user: { notes: { server: "allow", tools: { delete: "never" } } } }),
    ).toBe("never");
    expect(
      resolvePolicy({
        ...base,
        user: { notes: { tools: { delete: "never" } } },
        conversation: { notes: { server: "ask" } },
      }),
    ).toBe("ask");
    expect(resolvePolicy({ ...base, conversation: { other: { server: "allow" } } })).toBe("ask");
  });
});
