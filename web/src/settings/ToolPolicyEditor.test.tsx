import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { McpToolInfo } from "../../../durable-objects/protocol/rest";
import { TestResult } from "./TestResult";
import { ToolPolicyEditor } from "./ToolPolicyEditor";
import type { PolicySets } from "./tool-policy-state";

const tools: McpToolInfo[] = [
  { name: "list_notes", annotations: { readOnlyHint: true } },
  { name: "delete_note", title: "Delete a note", annotations: { destructiveHint: true } },
];
const noop = () => undefined;
const render = (sets: PolicySets, listed: McpToolInfo[] | null = tools) =>
  renderToStaticMarkup(
    <ToolPolicyEditor server="notes" builtin={false} tools={listed} sets={sets} onChange={noop} />,
  );

describe("the approval policies of a server", () => {
  it("offers allow / ask / never for the server and each tested tool, showing each default", () => {
    const html = render({ conversation: undefined, user: {} });
    expect(html).toContain("<summary>Approvals</summary>");
    expect(html).toContain("This conversation");
    expect(html).toContain("All my conversations");
    expect(html).toMatch(/All tools of notes<\/span> <select>.*Not set \(each tool&#x27;s own\)/);
    expect(html).toContain("Allow (runs at once)");
    expect(html).toContain("Ask (waits for approval)");
    expect(html).toContain("Never (not offered)");
    expect(html).toMatch(
      /Delete a note<\/span> <select><option value="" selected="">Not set \(ask\)/,
    );
    expect(html).toMatch(
      /list_notes<\/span> <select><option value="" selected="">Not set \(allow\)/,
    );
    expect(html).toContain("Default from its annotations: ask.");
    expect(html).toContain("Default from its annotations: allow.");
  });

  it("shows this conversation's overrides, and what the user's own policy makes the fallback", () => {
    const html = render({
      conversation: { notes: { tools: { delete_note: "never" } } },
      user: { notes: { server: "allow" } },
    });
    expect(html).toMatch(
      /Delete a note<\/span> <select><option value="">Not set \(allow\)<\/option>.*<option value="never" selected="">/,
    );
    expect(html).toMatch(
      /All tools of notes<\/span> <select><option value="" selected="">Not set \(allow\)/,
    );
    expect(html).toContain("In this conversation now: never.");
  });

  it("before a test, lists only tools with an override and says how to see the rest", () => {
    const html = render(
      { conversation: undefined, user: { notes: { tools: { purge: "never" } } } },
      null,
    );
    expect(html).toMatch(/purge<\/span> <select>/);
    expect(html).not.toContain("delete_note");
    expect(html).toContain("Test the server to choose a policy for each of its tools.");
  });
});

describe("names a server gives its tools", () => {
  it("show without bidi controls, in the policies and in the test's tool list", () => {
    const disguised: McpToolInfo[] = [
      { name: "delete_all\u202eweiver_", description: "Reads \u202egnihton" },
    ];
    const html = render({ conversation: undefined, user: {} }, disguised);
    expect(html).toContain("delete_allweiver_</span>");
    const tested = renderToStaticMarkup(
      <TestResult
        result={{
          ok: true,
          serverInfo: { name: "notes\u2066", version: "1" },
          protocolVersion: "2025-06-18",
          tools: disguised,
        }}
      />,
    );
    expect(tested).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(tested).toContain("Reads gnihton");
  });
});
