import { describe, expect, it } from "vitest";
import {
  effectivePolicy,
  inheritedPolicy,
  inheritedServerPolicy,
  overrideOf,
  withOverride,
} from "./tool-policy-state";

const destructive = { readOnlyHint: false, destructiveHint: true };
const readOnly = { readOnlyHint: true };

describe("editing overrides", () => {
  it("sets and removes a tool's and a server's policy, dropping what ends up empty", () => {
    const one = withOverride(undefined, "notes", "delete_note", "allow");
    expect(one).toEqual({ notes: { tools: { delete_note: "allow" } } });
    const both = withOverride(one, "notes", undefined, "never");
    expect(both).toEqual({ notes: { server: "never", tools: { delete_note: "allow" } } });
    expect(overrideOf(both, "notes")).toBe("never");
    expect(overrideOf(both, "notes", "delete_note")).toBe("allow");
    expect(
      withOverride(withOverride(both, "notes", "delete_note", null), "notes", undefined, null),
    ).toEqual({});
  });

  it("leaves other servers alone", () => {
    const start = { web: { server: "ask" as const } };
    expect(withOverride(start, "notes", "x", "never")).toEqual({
      web: { server: "ask" },
      notes: { tools: { x: "never" } },
    });
  });
});

describe("what a choice falls back to", () => {
  it("without overrides, the default from annotations: a destructive tool asks, a read-only one runs", () => {
    const sets = { conversation: undefined, user: {} };
    expect(inheritedPolicy(sets, "conversation", "notes", "delete_note", destructive, false)).toBe(
      "ask",
    );
    expect(inheritedPolicy(sets, "user", "notes", "list_notes", readOnly, false)).toBe("allow");
    // A tool without annotations on a server the user added asks; on our own worker it runs.
    expect(inheritedPolicy(sets, "user", "notes", "mystery", undefined, false)).toBe("ask");
    expect(inheritedPolicy(sets, "user", "mcp-remote", "search", undefined, true)).toBe("allow");
  });

  it("in a conversation, the user's own policy is what an unset choice falls back to", () => {
    const sets = {
      conversation: { notes: { tools: { delete_note: "never" as const } } },
      user: { notes: { tools: { delete_note: "allow" as const }, server: "ask" as const } },
    };
    expect(inheritedPolicy(sets, "conversation", "notes", "delete_note", destructive, false)).toBe(
      "allow",
    );
    expect(inheritedServerPolicy(sets, "conversation", "notes")).toBe("ask");
    // The user's scope ignores the conversation: its tool entry falls back to its server entry.
    expect(inheritedPolicy(sets, "user", "notes", "delete_note", destructive, false)).toBe("ask");
    expect(inheritedServerPolicy(sets, "user", "notes")).toBe("per tool");
    // What a turn of this conversation does: the conversation's tool override wins.
    expect(effectivePolicy(sets, "notes", "delete_note", destructive, false)).toBe("never");
  });
});
