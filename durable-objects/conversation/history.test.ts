// Stored messages → the neutral history a model call carries (history.ts).
import { describe, expect, it } from "vitest";
import type { ChatMessage, MessagePart } from "../protocol/messages";
import { COMPACT_RESULT_CHARS, type StoredResult, toNeutralHistory } from "./history";

let seq = 0;
const message = (role: ChatMessage["role"], content: MessagePart[]): ChatMessage => ({
  id: `m${++seq}`,
  role,
  content,
  status: "complete",
  seq,
  clientMessageId: null,
  createdAt: seq,
});
const call = (callId: string, tool = "search"): MessagePart => ({
  type: "tool_call",
  callId,
  server: "lit: pubmed",
  tool,
  arguments: { q: callId },
  status: "done",
  summary: `summary of ${callId}`,
});
const text = (t: string): MessagePart => ({ type: "text", text: t });

describe("the neutral history of stored messages", () => {
  it("keeps each step's text, calls and results in the order the user saw them", () => {
    const results = new Map<string, StoredResult>([
      ["c1", { forModel: [{ type: "text", text: "3 articles" }], summary: "3", isError: false }],
      ["c2", { forModel: [{ type: "text", text: "timeout" }], summary: "t", isError: true }],
    ]);
    const history = toNeutralHistory(
      [
        message("user", [text("find trials")]),
        message("assistant", [
          text("Searching."),
          call("c1"),
          call("c2", "trials"),
          text("Found three."),
          { type: "artifact", artifactId: "a1", artifactType: "bibliography", title: "Refs" },
        ]),
        message("user", [text("and then?")]),
      ],
      (id) => results.get(id),
    );
    expect(history).toEqual([
      { role: "user", content: [{ type: "text", text: "find trials" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Searching." },
          { type: "tool_call", id: "c1", name: "lit_pubmed__search", arguments: { q: "c1" } },
          { type: "tool_call", id: "c2", name: "lit_pubmed__trials", arguments: { q: "c2" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            callId: "c1",
            name: "lit_pubmed__search",
            content: [{ type: "text", text: "3 articles" }],
          },
          {
            type: "tool_result",
            callId: "c2",
            name: "lit_pubmed__trials",
            isError: true,
            content: [{ type: "text", text: "timeout" }],
          },
        ],
      },
      {
        role: "assistant",
        content: [
          {
            type: "text",
            text: "Found three.\n\n[Artifacts of this answer]\n- Refs (bibliography, artifact a1)",
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: "and then?" }] },
    ]);
  });

  it("shortens a long result, and names a call whose result was never recorded", () => {
    const long = "x".repeat(COMPACT_RESULT_CHARS + 1);
    const history = toNeutralHistory(
      [message("user", [text("q")]), message("assistant", [call("c1"), call("lost")])],
      (id) =>
        id === "c1"
          ? { forModel: [{ type: "text", text: long }], summary: "many xs", isError: false }
          : undefined,
    );
    const [first, second] = history
      .at(-1)!
      .content.map((p) => (p.type === "tool_result" ? JSON.stringify(p.content) : ""));
    expect(first).toMatch(
      /^\[\{"type":"text","text":"x{600}\\n… \[shortened: 2001 characters in all\./,
    );
    expect(first).toContain("Summary: many xs.");
    expect(second).toBe('[{"type":"text","text":"Result (summary): summary of lost"}]');
  });

  it("reads each stored result once (in the DO, a read parses a stored record)", () => {
    const reads: string[] = [];
    toNeutralHistory(
      [message("user", [text("q")]), message("assistant", [call("c1"), call("c2"), text("ok")])],
      (id) => {
        reads.push(id);
        return { forModel: [{ type: "text", text: "r" }], summary: "r", isError: true };
      },
    );
    expect(reads).toEqual(["c1", "c2"]);
  });
});

describe("an answer that never came", () => {
  it("is said so, so the next question does not read as asked together with the failed one", () => {
    const failed = { ...message("assistant", []), status: "failed" as const };
    const stopped = { ...message("assistant", []), status: "cancelled" as const };
    const partial = { ...message("assistant", [text("Half an")]), status: "failed" as const };
    const history = toNeutralHistory([
      message("user", [text("first question")]),
      failed,
      message("user", [text("second question")]),
      stopped,
      message("user", [text("third question")]),
      partial,
      message("user", [text("fourth question")]),
    ]);
    expect(history.map((m) => [m.role, m.content.map((p) => p.type === "text" && p.text)])).toEqual(
      [
        ["user", ["first question"]],
        ["assistant", ["[No answer: this turn failed before anything was said.]"]],
        ["user", ["second question"]],
        ["assistant", ["[No answer: the user stopped this turn before anything was said.]"]],
        ["user", ["third question"]],
        ["assistant", ["Half an"]],
        ["user", ["fourth question"]],
      ],
    );
  });
});

describe("a shortened result saved as an artifact", () => {
  it("points to the artifact that holds it whole, by id", () => {
    const long = "y".repeat(COMPACT_RESULT_CHARS + 1);
    const history = toNeutralHistory(
      [message("user", [text("q")]), message("assistant", [call("c1")])],
      () => ({
        forModel: [{ type: "text", text: long }],
        summary: "many ys",
        isError: false,
        artifacts: [{ id: "art-42", title: "PubMed results" }],
      }),
    );
    const [result] = history
      .at(-1)!
      .content.map((p) => (p.type === "tool_result" ? JSON.stringify(p.content) : ""));
    expect(result).toContain(
      'The full result is saved as the artifact \\"PubMed results\\" (artifact art-42); fetch it by its artifact id',
    );
    expect(result).not.toContain("kept with this call");
  });
});
