import { beforeAll, describe, expect, it } from "vitest";
import {
  type Connected,
  connect,
  context,
  db,
  seedConversations,
  text,
} from "../../test/mcp-client";

interface G {
  nodes: Array<{ id: string; label: string; type: string; properties: Record<string, unknown> }>;
  links: Array<{
    source: string;
    target: string;
    type: string;
    properties: Record<string, unknown>;
  }>;
}

let mcp: Connected;
const call = async (name: string, args: Record<string, unknown>) =>
  mcp.client.callTool({ name, arguments: args });
const graphOf = async (conversationId: string) =>
  (await call("graph_read", { databaseContext: await context(conversationId) }))
    .structuredContent as unknown as G;

const sample = {
  nodes: [
    { id: "brca1", label: "BRCA1", type: "gene", properties: { chromosome: "17" } },
    { id: "bc", label: "Breast cancer", type: "disease" },
    { id: "ola", label: "Olaparib", type: "chemical" },
  ],
  links: [
    { source: "brca1", target: "bc", type: "associated_with" },
    { source: "ola", target: "bc", type: "treats", properties: { pmid: "29625052" } },
  ],
};

beforeAll(async () => {
  await seedConversations("conv-a", "conv-b", "conv-c", "conv-d", "conv-big");
  mcp = await connect();
});

describe("knowledge graph tools", () => {
  it("merges into an empty graph and returns the knowledge-graph artifact shape", async () => {
    const r = await call("graph_merge", { databaseContext: await context("conv-a"), ...sample });
    expect(r.isError).toBeFalsy();
    const g = r.structuredContent as unknown as G;
    expect(g.nodes.find((n) => n.id === "bc")).toEqual({
      id: "bc",
      label: "Breast cancer",
      type: "disease",
      properties: {},
    });
    expect(g.links).toContainEqual({
      source: "ola",
      target: "bc",
      type: "treats",
      properties: { pmid: "29625052" },
    });
    expect(text(r)).toMatch(/^Merged 3 nodes and 2 links\./);
    // The text copy carries the same JSON for clients that read only text.
    expect(JSON.parse(text(r).split("\n").slice(1).join("\n"))).toEqual(g);
  });

  it("merging the same graph twice is idempotent", async () => {
    await call("graph_merge", { databaseContext: await context("conv-c"), ...sample });
    const once = await graphOf("conv-c");
    await call("graph_merge", { databaseContext: await context("conv-c"), ...sample });
    const twice = await graphOf("conv-c");
    expect(twice).toEqual(once);
    const rows = await db
      .prepare("SELECT count(*) AS n FROM graph_nodes WHERE conversation_id = 'conv-c'")
      .first<{ n: number }>();
    expect(rows?.n).toBe(3);
  });

  it("updates merge properties, a null removes one, and links to missing nodes are skipped", async () => {
    const r = await call("graph_merge", {
      databaseContext: await context("conv-c"),
      nodes: [
        {
          id: "brca1",
          label: "BRCA1 gene",
          type: "gene",
          properties: { chromosome: null, aliases: ["RNF53"] },
        },
      ],
      links: [{ source: "brca1", target: "nowhere", type: "binds" }],
    });
    expect(text(r)).toMatch(/1 links were skipped .*brca1 -\[binds\]-> nowhere/);
    const g = await graphOf("conv-c");
    expect(g.nodes.find((n) => n.id === "brca1")).toEqual({
      id: "brca1",
      label: "BRCA1 gene",
      type: "gene",
      properties: { aliases: ["RNF53"] },
    });
    expect(g.links.some((l) => l.target === "nowhere")).toBe(false);
  });

  it("finds neighbours and a shortest path, and says when there is none", async () => {
    const near = await call("graph_neighbors", {
      databaseContext: await context("conv-a"),
      nodeId: "ola",
    });
    expect((near.structuredContent as unknown as G).nodes.map((n) => n.id).sort()).toEqual([
      "bc",
      "ola",
    ]);
    const wide = await call("graph_neighbors", {
      databaseContext: await context("conv-a"),
      nodeId: "ola",
      depth: 2,
    });
    expect((wide.structuredContent as unknown as G).nodes).toHaveLength(3);
    const path = await call("graph_path", {
      databaseContext: await context("conv-a"),
      from: "brca1",
      to: "ola",
    });
    expect((path.structuredContent as unknown as G).links.map((l) => l.type)).toEqual([
      "associated_with",
      "treats",
    ]);
    await call("graph_merge", {
      databaseContext: await context("conv-a"),
      nodes: [{ id: "island", label: "Alone" }],
    });
    const none = await call("graph_path", {
      databaseContext: await context("conv-a"),
      from: "brca1",
      to: "island",
    });
    expect(none.isError).toBe(true);
    expect(text(none)).toMatch(/No path/);
    const unknown = await call("graph_neighbors", {
      databaseContext: await context("conv-a"),
      nodeId: "ghost",
    });
    expect(text(unknown)).toMatch(/no node 'ghost'/);
  });

  it("graph_path names an end that is not in the graph instead of drawing an empty path", async () => {
    await call("graph_merge", { databaseContext: await context("conv-c"), ...sample });
    const same = await call("graph_path", {
      databaseContext: await context("conv-c"),
      from: "ghost",
      to: "ghost",
    });
    expect(same.isError).toBe(true);
    expect(text(same)).toMatch(/no node 'ghost'/);
    expect(same.structuredContent).toBeUndefined();
    const oneEnd = await call("graph_path", {
      databaseContext: await context("conv-c"),
      from: "brca1",
      to: "ghost",
    });
    expect(oneEnd.isError).toBe(true);
    expect(text(oneEnd)).toMatch(/no node 'ghost'/);
    const self = await call("graph_path", {
      databaseContext: await context("conv-c"),
      from: "bc",
      to: "bc",
    });
    expect((self.structuredContent as unknown as G).nodes.map((n) => n.id)).toEqual(["bc"]);
  });

  it("merges a node or link given twice in one call once, and counts it once", async () => {
    const r = await call("graph_merge", {
      databaseContext: await context("conv-c"),
      nodes: [
        { id: "dup", label: "First" },
        { id: "dup", label: "Second" },
        { id: "ü😀", label: "Ünïcode 😀" },
      ],
      links: [
        { source: "dup", target: "dup" },
        { source: "dup", target: "ü😀" },
        { source: "dup", target: "ü😀" },
      ],
    });
    expect(text(r).split("\n")[0]).toBe("Merged 2 nodes and 2 links.");
    const g = r.structuredContent as unknown as G;
    expect(g.nodes.find((n) => n.id === "dup")?.label).toBe("Second");
    expect(g.nodes.find((n) => n.id === "ü😀")?.label).toBe("Ünïcode 😀");
    expect(g.links.filter((l) => l.source === "dup")).toHaveLength(2);
  });

  it("graph_remove's summary counts what was removed, not what was asked for", async () => {
    await call("graph_merge", { databaseContext: await context("conv-c"), ...sample });
    const nothing = await call("graph_remove", {
      databaseContext: await context("conv-c"),
      nodeIds: ["ghost", "phantom"],
      links: [{ source: "ola", target: "brca1", type: "treats" }],
    });
    expect(text(nothing).split("\n")[0]).toBe("Removed 0 nodes and 0 links.");
    const some = await call("graph_remove", {
      databaseContext: await context("conv-c"),
      nodeIds: ["bc", "ghost"],
    });
    // bc and the two links touching it.
    expect(text(some).split("\n")[0]).toBe("Removed 1 nodes and 2 links.");
  });

  it("bounds properties and the whole graph, so a graph result cannot grow without end", async () => {
    const ctx = await context("conv-big");
    const long = await call("graph_merge", {
      databaseContext: ctx,
      nodes: [{ id: "n", label: "N", properties: { note: "x".repeat(5000) } }],
    });
    expect(long.isError).toBe(true);
    expect(text(long)).toMatch(/properties of node 'n' .*limit is 4000.*properties_too_large/);
    // Merges add keys: each call is small, but together they would pass the bound.
    await call("graph_merge", {
      databaseContext: ctx,
      nodes: [{ id: "n", label: "N", properties: { a: "x".repeat(3000) } }],
    });
    const grown = await call("graph_merge", {
      databaseContext: ctx,
      nodes: [{ id: "n", label: "N", properties: { b: "x".repeat(3000) } }],
    });
    expect(grown.isError).toBe(true);
    expect(text(grown)).toMatch(/properties_too_large/);
    // Replacing a key keeps the size, so it is allowed.
    const replaced = await call("graph_merge", {
      databaseContext: ctx,
      nodes: [{ id: "n", label: "N", properties: { a: "y".repeat(3000) } }],
    });
    expect(replaced.isError).toBeFalsy();
    const batch = (from: number) =>
      Array.from({ length: 400 }, (_, i) => ({
        id: `big${from + i}`,
        label: "B",
        properties: { note: "z".repeat(3900) },
      }));
    for (const from of [0, 400])
      expect(
        (await call("graph_merge", { databaseContext: ctx, nodes: batch(from) })).isError,
      ).toBeFalsy();
    const tooMuch = await call("graph_merge", { databaseContext: ctx, nodes: batch(800) });
    expect(tooMuch.isError).toBe(true);
    expect(text(tooMuch)).toMatch(/limit is 4000000\b.*graph_too_large/);
    const g = await graphOf("conv-big");
    expect(g.nodes).toHaveLength(801);
    expect(JSON.stringify(g).length).toBeLessThan(4_000_000);
  });

  it("removing a node removes its links; removing a link keeps its nodes", async () => {
    await call("graph_merge", { databaseContext: await context("conv-d"), ...sample });
    const removed = await call("graph_remove", {
      databaseContext: await context("conv-d"),
      nodeIds: ["bc"],
    });
    const g = removed.structuredContent as unknown as G;
    expect(g.nodes.map((n) => n.id).sort()).toEqual(["brca1", "ola"]);
    expect(g.links).toEqual([]);
    const left = await db
      .prepare("SELECT count(*) AS n FROM graph_links WHERE conversation_id = 'conv-d'")
      .first<{ n: number }>();
    expect(left?.n).toBe(0);

    await call("graph_merge", {
      databaseContext: await context("conv-d"),
      links: [{ source: "brca1", target: "ola", type: "sensitises_to" }],
    });
    const unlinked = await call("graph_remove", {
      databaseContext: await context("conv-d"),
      links: [{ source: "brca1", target: "ola", type: "sensitises_to" }],
    });
    expect((unlinked.structuredContent as unknown as G).nodes).toHaveLength(2);
    expect((unlinked.structuredContent as unknown as G).links).toEqual([]);
  });

  it("deleting the conversation deletes its graph", async () => {
    await seedConversations("conv-gone");
    await call("graph_merge", { databaseContext: await context("conv-gone"), ...sample });
    await db.prepare("DELETE FROM conversations WHERE id = 'conv-gone'").run();
    const rows = await db
      .prepare("SELECT count(*) AS n FROM graph_nodes WHERE conversation_id = 'conv-gone'")
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("refuses a graph for a conversation that is not in the database", async () => {
    const r = await call("graph_merge", {
      databaseContext: await context("conv-missing"),
      ...sample,
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/unknown_conversation/);
  });
});

describe("graph scoping", () => {
  it("a call scoped to conversation A can neither read nor change B", async () => {
    await call("graph_merge", {
      databaseContext: await context("conv-b"),
      nodes: [{ id: "secret", label: "B's node" }],
    });
    const before = await graphOf("conv-b");
    // A token for A presented with B's id, for every tool.
    const spoofed = await context("conv-b", "conv-a");
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["graph_read", {}],
      ["graph_merge", { nodes: [{ id: "planted", label: "x" }] }],
      ["graph_remove", { nodeIds: ["secret"] }],
      ["graph_neighbors", { nodeId: "secret" }],
      ["graph_path", { from: "secret", to: "secret" }],
    ];
    for (const [name, args] of attempts) {
      const r = await call(name, { databaseContext: spoofed, ...args });
      expect(r.isError, name).toBe(true);
      expect(text(r), name).toMatch(/another conversation/);
      expect(r.structuredContent, name).toBeUndefined();
    }
    expect(await graphOf("conv-b")).toEqual(before);
    // And A's own calls only ever see A.
    expect((await graphOf("conv-a")).nodes.some((n) => n.id === "secret")).toBe(false);
  });

  it("refuses a forged, expired or missing context", async () => {
    const forged = await call("graph_read", {
      databaseContext: {
        conversationId: "conv-b",
        token: "eyJjb252ZXJzYXRpb25JZCI6ImNvbnYtYiJ9.c2ln",
      },
    });
    expect(text(forged)).toMatch(/signature/);
    const expired = await call("graph_read", {
      databaseContext: await context("conv-b", "conv-b", -1),
    });
    expect(text(expired)).toMatch(/expired/);
    const missing = await call("graph_read", {});
    expect(missing.isError).toBe(true);
  });
});
