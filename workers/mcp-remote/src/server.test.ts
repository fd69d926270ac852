import { Validator } from "@cfworker/json-schema";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signContextToken } from "./context-token";

const BASE = "https://mcp.test/mcp";
const worker = exports.default as unknown as { fetch: (r: Request) => Promise<Response> };
const db = (env as unknown as { DB: D1Database }).DB;

async function connect(token = "test-mcp-token") {
  const client = new Client(
    { name: "test", version: "1" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  const transport = new StreamableHTTPClientTransport(new URL(BASE), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (u, i) => worker.fetch(new Request(u, i)),
  });
  await client.connect(transport);
  return client;
}

const text = (r: Record<string, unknown>) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? [])
    .flatMap((c) => (c.type === "text" ? [c.text] : []))
    .join("\n");

async function context(conversationId: string, forConversation = conversationId) {
  return {
    conversationId,
    apiBase: "https://app.test",
    token: await signContextToken("test-graph-secret", {
      conversationId: forConversation,
      userId: "u1",
    }),
  };
}

let client: Client;
beforeAll(async () => {
  await db.batch([
    db.prepare("INSERT INTO users (id, name) VALUES ('u1', 'u1')"),
    db.prepare(
      "INSERT INTO conversations (id, user_id, title, provider, model) VALUES ('conv-a', 'u1', 'A', 'anthropic', 'm'), ('conv-b', 'u1', 'B', 'anthropic', 'm')",
    ),
  ]);
  client = await connect();
});

describe("the server over real streamable HTTP", () => {
  it("initialises at protocol 2025-11-25 and lists tools with valid schemas and truthful annotations", async () => {
    expect(client.getServerVersion()?.name).toBe("thinking-chat-tools");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual([
      "graph_merge",
      "graph_neighbors",
      "graph_path",
      "graph_read",
      "graph_remove",
      "pubmed_fetch",
      "pubmed_search",
      "pubtator_annotations",
      "render_chart",
      "trial_get",
      "trials_search",
    ]);
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(() => new Validator(t.inputSchema as never)).not.toThrow();
      if (t.outputSchema) expect(() => new Validator(t.outputSchema as never)).not.toThrow();
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.graph_remove).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.graph_read).toMatchObject({ readOnlyHint: true });
    expect(byName.pubmed_search).toMatchObject({ openWorldHint: true, readOnlyHint: true });
    expect(byName.graph_merge).toMatchObject({ idempotentHint: true, openWorldHint: false });
  });

  it("refuses a request without the token, with a wrong one, and from a foreign Origin", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    expect((await worker.fetch(new Request(BASE, { method: "POST", headers, body }))).status).toBe(
      401,
    );
    expect(
      (
        await worker.fetch(
          new Request(BASE, {
            method: "POST",
            headers: { ...headers, authorization: "Bearer nope" },
            body,
          }),
        )
      ).status,
    ).toBe(401);
    const foreign = await worker.fetch(
      new Request(BASE, {
        method: "POST",
        headers: {
          ...headers,
          authorization: "Bearer test-mcp-token",
          origin: "https://evil.example",
        },
        body,
      }),
    );
    expect(foreign.status).toBe(403);
  });

  it("bad arguments come back as isError results that say what is wrong", async () => {
    const r = await client.callTool({ name: "trial_get", arguments: { nctId: "12345" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/NCT01234567/);
    const s = await client.callTool({
      name: "render_chart",
      arguments: { type: "donut", series: [] },
    });
    expect(s.isError).toBe(true);
  });
});

describe("knowledge graph tools", () => {
  it("merging twice is idempotent; removing a node removes its links; neighbours and paths", async () => {
    const graph = {
      nodes: [
        { id: "brca1", label: "BRCA1", type: "gene" },
        { id: "bc", label: "Breast cancer", type: "disease" },
        { id: "ola", label: "Olaparib", type: "chemical" },
      ],
      links: [
        { source: "brca1", target: "bc", type: "associated_with" },
        { source: "ola", target: "bc", type: "treats" },
      ],
    };
    const first = await client.callTool({
      name: "graph_merge",
      arguments: { databaseContext: await context("conv-a"), ...graph },
    });
    const second = await client.callTool({
      name: "graph_merge",
      arguments: { databaseContext: await context("conv-a"), ...graph },
    });
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect((second.structuredContent as { nodes: unknown[] }).nodes).toHaveLength(3);

    const path = await client.callTool({
      name: "graph_path",
      arguments: { databaseContext: await context("conv-a"), from: "brca1", to: "ola" },
    });
    expect((path.structuredContent as { links: unknown[] }).links).toHaveLength(2);
    const near = await client.callTool({
      name: "graph_neighbors",
      arguments: { databaseContext: await context("conv-a"), nodeId: "ola" },
    });
    expect(
      (near.structuredContent as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id).sort(),
    ).toEqual(["bc", "ola"]);

    const removed = await client.callTool({
      name: "graph_remove",
      arguments: { databaseContext: await context("conv-a"), nodeIds: ["bc"] },
    });
    expect(removed.structuredContent).toMatchObject({ links: [] });
    expect((removed.structuredContent as { nodes: unknown[] }).nodes).toHaveLength(2);
  });

  it("a call scoped to conversation A cannot read or change B, and a call without a valid context is refused", async () => {
    await client.callTool({
      name: "graph_merge",
      arguments: {
        databaseContext: await context("conv-b"),
        nodes: [{ id: "secret", label: "B's node" }],
      },
    });
    // A token for A, presented as B.
    const spoofed = await client.callTool({
      name: "graph_read",
      arguments: { databaseContext: await context("conv-b", "conv-a") },
    });
    expect(spoofed.isError).toBe(true);
    expect(text(spoofed)).toMatch(/another conversation/);
    const write = await client.callTool({
      name: "graph_remove",
      arguments: { databaseContext: await context("conv-b", "conv-a"), nodeIds: ["secret"] },
    });
    expect(write.isError).toBe(true);
    const forged = await client.callTool({
      name: "graph_read",
      arguments: { databaseContext: { conversationId: "conv-b", token: "forged.token" } },
    });
    expect(forged.isError).toBe(true);
    const missing = await client.callTool({ name: "graph_read", arguments: {} });
    expect(missing.isError).toBe(true);
    const stillThere = await client.callTool({
      name: "graph_read",
      arguments: { databaseContext: await context("conv-b") },
    });
    expect(
      (stillThere.structuredContent as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id),
    ).toEqual(["secret"]);
  });
});

describe("literature and trials, from recorded responses", () => {
  it("searches PubMed and fetches details as a bibliography, with progress", async () => {
    const search = await client.callTool({
      name: "pubmed_search",
      arguments: { query: "brca1 parp inhibitor", maxResults: 2 },
    });
    expect(search.structuredContent).toEqual({ total: 1843, pmids: ["31452104", "29625052"] });
    const progress: number[] = [];
    const details = await client.callTool(
      { name: "pubmed_fetch", arguments: { pmids: ["31452104", "29625052"] } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    const bib = (details.structuredContent as { bibliography: Array<Record<string, unknown>> })
      .bibliography;
    expect(bib[0]).toMatchObject({
      pmid: "31452104",
      journal: "The Lancet. Oncology",
      year: 2019,
      doi: "10.1016/S1470-2045(19)30029-4",
      authors: ["Moore KN", "Secord AA"],
    });
    expect(bib[0]!.abstract).toContain(
      "FINDINGS: Niraparib showed clinically relevant activity in patients with BRCA-mutated disease.",
    );
    expect(bib[1]).toMatchObject({
      pmid: "29625052",
      year: 2018,
      abstract: "Olaparib monotherapy provided a significant benefit over standard therapy.",
    });
    expect(progress).toEqual([0, 1, 2]);
  });

  it("reports empty results, rate limits, server errors and malformed bodies plainly", async () => {
    const empty = await client.callTool({
      name: "pubmed_search",
      arguments: { query: "nothingmatchesthisquery" },
    });
    expect(empty.structuredContent).toEqual({ total: 0, pmids: [] });
    for (const [query, pattern] of [
      ["ratelimited", /rate limiting/],
      ["servererror", /HTTP 500/],
      ["malformed", /malformed/],
    ] as const) {
      const r = await client.callTool({ name: "pubmed_search", arguments: { query } });
      expect(r.isError, query).toBe(true);
      expect(text(r)).toMatch(pattern);
    }
  });

  it("turns PubTator annotations into a knowledge graph", async () => {
    const r = await client.callTool({
      name: "pubtator_annotations",
      arguments: { pmids: ["29625052"] },
    });
    const g = r.structuredContent as {
      nodes: Array<{ id: string; type: string; properties: { mentions?: number } }>;
      links: Array<{ source: string; target: string; type: string }>;
    };
    expect(g.nodes.find((n) => n.id === "MESH:C531550")).toMatchObject({
      type: "chemical",
      properties: { mentions: 2 },
    });
    expect(g.links).toContainEqual(
      expect.objectContaining({ source: "MESH:C531550", target: "MESH:D001943", type: "treat" }),
    );
    expect(g.links).toContainEqual(
      expect.objectContaining({ source: "PMID:29625052", target: "672", type: "mentions" }),
    );
  });

  it("searches ClinicalTrials.gov and fetches one trial", async () => {
    const r = await client.callTool({
      name: "trials_search",
      arguments: {
        condition: "breast cancer",
        intervention: "olaparib",
        status: ["RECRUITING"],
        phase: ["PHASE3"],
      },
    });
    expect(r.structuredContent).toMatchObject({
      trials: [
        {
          nctId: "NCT03286842",
          status: "RECRUITING",
          phases: ["PHASE3"],
          interventions: ["Olaparib"],
          locations: ["Dana-Farber Cancer Institute, Boston, United States"],
        },
      ],
      nextPageToken: "NF0g5JGBlPMu",
    });
    const one = await client.callTool({ name: "trial_get", arguments: { nctId: "NCT03286842" } });
    expect(one.structuredContent).toMatchObject({
      trial: { nctId: "NCT03286842", url: "https://clinicaltrials.gov/study/NCT03286842" },
    });
  });
});

describe("charts", () => {
  it("renders a chart as an SVG image with escaped text", async () => {
    const r = await client.callTool({
      name: "render_chart",
      arguments: {
        type: "bar",
        title: "<script>alert(1)</script>",
        labels: ["a", "b"],
        series: [{ name: "s", values: [1, 3] }],
      },
    });
    const image = (r.content as Array<{ type: string; data?: string; mimeType?: string }>).find(
      (c) => c.type === "image",
    )!;
    expect(image.mimeType).toBe("image/svg+xml");
    const svg = atob(image.data!);
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).not.toContain("<script>");
    expect(svg.match(/<rect /g)!.length).toBe(3);
  });
});
