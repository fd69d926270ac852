import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Connected, connect } from "../../test/mcp-client";

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect();
});

const promptText = async (args: Record<string, string>) => {
  const r = await mcp.client.getPrompt({ name: "literature_review", arguments: args });
  expect(r.messages).toHaveLength(1);
  expect(r.messages[0]!.role).toBe("user");
  const content = r.messages[0]!.content;
  return content.type === "text" ? content.text : "";
};

describe("the literature_review prompt", () => {
  it("is listed with its arguments, topic required and years optional", async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: "literature_review",
        title: "Literature review",
        arguments: [
          expect.objectContaining({ name: "topic", required: true }),
          expect.objectContaining({ name: "years", required: false }),
        ],
      }),
    ]);
  });

  it("asks for a sourced review of the topic, using this server's tools", async () => {
    const text = await promptText({ topic: "PARP inhibitors in BRCA-mutated breast cancer" });
    expect(text).toMatch(
      /^Write a literature review on: PARP inhibitors in BRCA-mutated breast cancer\.\n/,
    );
    for (const tool of [
      "pubmed_search",
      "pubmed_fetch",
      "pubtator_annotations",
      "graph_merge",
      "trials_search",
    ])
      expect(text).toContain(tool);
    expect(text).toMatch(/Cite every claim with its PMID/);
    expect(text).not.toMatch(/minDate|published/);
  });

  it("turns years into the search's date bounds", async () => {
    const span = await promptText({ topic: "olaparib", years: "2018-2024" });
    expect(span).toContain("(articles published from 2018 to 2024)");
    expect(span).toContain('pubmed_search with minDate "2018" and maxDate "2024"');
    const since = await promptText({ topic: "olaparib", years: "2020" });
    expect(since).toContain("(articles published in 2020 or later)");
    expect(since).toContain('pubmed_search with minDate "2020";');
  });

  it("refuses arguments it cannot use with -32602, naming the argument", async () => {
    for (const [args, pattern] of [
      [
        { topic: "olaparib", years: "recent" },
        /years is one year \(2018: that year on\) or a span/,
      ],
      [{ topic: "olaparib", years: "2024-2018" }, /years must run forward/],
      [{ topic: "ab" }, /topic needs at least 3 characters/],
    ] as const) {
      const err = await mcp.client
        .getPrompt({ name: "literature_review", arguments: args })
        .catch((e: unknown) => e);
      expect(err, JSON.stringify(args)).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).message).toMatch(pattern);
      // The client adds "MCP error -32602: " once; the server's message does not repeat it.
      expect((err as McpError).message).toMatch(/^MCP error -32602: (?!MCP error)/);
    }
  });
});
