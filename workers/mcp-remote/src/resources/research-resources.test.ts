import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Connected, connect, outsideRequests } from "../../test/mcp-client";

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect();
});
const read = (uri: string) => mcp.client.readResource({ uri });
const failure = (uri: string) => read(uri).catch((e: unknown) => e as McpError);

describe("research resources", () => {
  it("lists the query guide and the article and trial templates", async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({
        uri: "guide://pubmed-query-syntax",
        name: "pubmed_query_guide",
        mimeType: "text/markdown",
      }),
    ]);
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.name, t.uriTemplate, t.mimeType])).toEqual([
      ["pubmed_article", "pubmed://article/{pmid}", "text/markdown"],
      ["clinical_trial", "clinicaltrials://study/{nctId}", "text/markdown"],
    ]);
  });

  it("reads one PubMed article as markdown, asking PubMed for that PMID only", async () => {
    const before = (await outsideRequests()).length;
    const r = await read("pubmed://article/29625052");
    expect(r.contents).toHaveLength(1);
    const [c] = r.contents;
    expect(c).toMatchObject({ uri: "pubmed://article/29625052", mimeType: "text/markdown" });
    const text = (c as { text: string }).text;
    expect(text).toMatch(/^# Olaparib for Metastatic Breast Cancer/);
    expect(text).toContain("doi:10.1056/NEJMoa1706450. PMID 29625052");
    expect(text).toContain("https://pubmed.ncbi.nlm.nih.gov/29625052/");
    expect(text).toMatch(
      /## Abstract\n\nOlaparib monotherapy provided a significant benefit over standard therapy\.$/,
    );
    expect(text).not.toContain("Niraparib");
    const asked = await outsideRequests(before);
    expect(asked.every((u) => new URL(u, "http://x").searchParams.get("id") === "29625052")).toBe(
      true,
    );
  });

  it("reads one clinical trial as markdown", async () => {
    const r = await read("clinicaltrials://study/NCT03286842");
    const text = (r.contents[0] as { text: string }).text;
    expect(text).toMatch(/^# A Study of Olaparib in BRCA-mutated Breast Cancer\n/);
    expect(text).toContain("NCT03286842, RECRUITING. https://clinicaltrials.gov/study/NCT03286842");
    expect(text).toContain("- Interventions: Olaparib");
  });

  it("reads the query guide", async () => {
    const r = await read("guide://pubmed-query-syntax");
    expect((r.contents[0] as { text: string }).text).toMatch(
      /^# PubMed query syntax\n[\s\S]*\[tiab\]/,
    );
  });

  it("answers a missing article or trial with -32002, a malformed id with -32602", async () => {
    const noArticle = await failure("pubmed://article/123");
    expect(noArticle).toBeInstanceOf(McpError);
    expect(noArticle.code).toBe(-32002);
    expect(noArticle.message).toMatch(/PubMed has no article 123\./);
    const noTrial = await failure("clinicaltrials://study/NCT00000000");
    expect(noTrial.code).toBe(-32002);
    expect(noTrial.message).toMatch(/ClinicalTrials\.gov has no study NCT00000000\./);
    const badId = await failure("pubmed://article/abc");
    expect(badId.code).toBe(-32602);
    expect(badId.message).toBe('MCP error -32602: A PMID is a number such as 31452104, not "abc".');
    expect(noArticle.message).toBe("MCP error -32002: PubMed has no article 123.");
  });

  it("answers a URI it does not serve with -32002 too, without asking any outside service", async () => {
    const before = (await outsideRequests()).length;
    for (const uri of ["guide://other", "pubmed://nothing/1", "file:///etc/passwd"]) {
      const r = await failure(uri);
      expect(r, uri).toBeInstanceOf(McpError);
      expect(r.code, uri).toBe(-32002);
      expect(r.message, uri).toContain(`Resource not found: ${uri}.`);
      expect(r.data, uri).toEqual({ uri });
    }
    expect(await outsideRequests(before)).toEqual([]);
    // Our own URIs still reach their readers.
    expect((await read("guide://pubmed-query-syntax")).contents).toHaveLength(1);
  });

  it("answers an outside failure with an error that says what happened", async () => {
    const r = await failure("clinicaltrials://study/NCT42900000");
    expect(r).toBeInstanceOf(McpError);
    expect(r.message).toMatch(/ClinicalTrials\.gov is rate limiting us/);
    expect(r.data).toMatchObject({ code: "rate_limited", retryable: true });
  });
});
