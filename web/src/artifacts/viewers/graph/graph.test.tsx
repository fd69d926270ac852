import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { artifact } from "../../test-artifact";
import { fitTransform, VIEW_HEIGHT, VIEW_WIDTH, zoomAt } from "./GraphCanvas";
import { graphStyle, PAGE_COLOURS } from "./graph-style";
import { KnowledgeGraphViewer } from "./KnowledgeGraphViewer";
import { layoutGraph } from "./layout-graph";
import { typeCounts } from "./node-colours";
import { parseGraph, type Graph } from "./parse-graph";

const sample = {
  nodes: [
    { id: "brca1", label: "BRCA1", type: "Gene", properties: { chromosome: "17q21" } },
    { id: "bc", name: "Breast cancer", type: "Disease" },
    { id: "olaparib", label: "Olaparib", type: "Drug", approved: 2014 },
  ],
  links: [
    { source: "brca1", target: "bc", type: "associated_with" },
    { source: "olaparib", target: "bc", type: "treats" },
  ],
};

function parsed(value: unknown): Graph {
  const r = parseGraph(JSON.stringify(value));
  if (!r.ok) throw new Error(r.message);
  return r.graph;
}

describe("parsing a knowledge graph", () => {
  it("reads nodes with labels, names, types and properties", () => {
    const g = parsed(sample);
    expect(g.nodes.map((n) => [n.id, n.label, n.type])).toEqual([
      ["brca1", "BRCA1", "Gene"],
      ["bc", "Breast cancer", "Disease"],
      ["olaparib", "Olaparib", "Drug"],
    ]);
    expect(g.nodes[0]!.properties).toEqual({ chromosome: "17q21" });
    // Fields beside the known ones are properties too.
    expect(g.nodes[2]!.properties).toEqual({ approved: 2014 });
    expect(g.links.map((l) => [l.source, l.target, l.type])).toEqual([
      ["brca1", "bc", "associated_with"],
      ["olaparib", "bc", "treats"],
    ]);
  });

  it("accepts edges or relationships, ids as numbers, endpoints as objects", () => {
    const edges = parsed({
      nodes: [
        { id: 1, name: "A" },
        { id: 2, name: "B" },
      ],
      edges: [{ from: 1, to: { id: 2 }, relation: "cites" }],
    });
    expect(edges.links).toEqual([{ source: "1", target: "2", type: "cites", properties: {} }]);
    const rels = parsed({
      graph: {
        nodes: [{ name: "A", labels: ["Person"] }, { name: "B" }],
        relationships: [{ start: "A", end: "B", type: "KNOWS", properties: { since: 2001 } }],
      },
    });
    expect(rels.nodes.map((n) => [n.id, n.label, n.type])).toEqual([
      ["A", "A", "Person"],
      ["B", "B", null],
    ]);
    expect(rels.links[0]).toEqual({
      source: "A",
      target: "B",
      type: "KNOWS",
      properties: { since: 2001 },
    });
  });

  it("adds nodes that only links name, and says what it left out", () => {
    const r = parseGraph(
      JSON.stringify({
        nodes: [{ id: "a" }, { id: "a" }, { label: null }, 42],
        links: [{ source: "a", target: "ghost" }, { source: "a" }, "junk"],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.graph.nodes.map((n) => n.id)).toEqual(["a", "ghost"]);
    expect(r.graph.links).toHaveLength(1);
    expect(r.notes.join(" ")).toMatch(/3 nodes .* left out/);
    expect(r.notes.join(" ")).toMatch(/2 links .* left out/);
    expect(r.notes.join(" ")).toMatch(/1 node named only by links added/);
  });

  it("reads odd values the lenient way whichever path parses them: numbers as text, wrong types dropped", () => {
    const r = parseGraph(
      JSON.stringify({
        nodes: [
          { id: " n1 ", label: 7, type: null, properties: [1, 2], color: "red" },
          { id: "n2", name: "  Two ", labels: ["Gene", 3], attributes: { a: 1 }, props: null },
          { id: "n3", title: "Three", kind: "Drug", labels: ["No"], x: 4, properties: { p: "q" } },
          { id: true, name: "by name" },
          [1, 2],
          null,
          "n4",
          { id: "n5", label: "", name: "Five", group: 9 },
        ],
        links: [
          { source: { id: " n1" }, target: 2, predicate: "p", weight: 3, id: "l1" },
          { from: "n2", to: { id: "n3", extra: 1 }, relation: null, label: "rel", properties: "" },
          { subject: "n3", object: ["n1"], end: "n4", start: "n3", type: 5 },
          { source: { name: "n1" }, target: "n2" },
          {
            source: "n1",
            target: "n5",
            attributes: { w: 1 },
            props: { z: 2 },
            properties: { w: 3 },
          },
          { source: "", target: "n2" },
        ],
      }),
    );
    expect(r).toEqual({
      ok: true,
      graph: {
        nodes: [
          { id: "n1", label: "7", type: null, properties: { color: "red" } },
          { id: "n2", label: "Two", type: null, properties: { a: 1 } },
          { id: "n3", label: "Three", type: "Drug", properties: { p: "q" } },
          { id: "by name", label: "by name", type: null, properties: {} },
          { id: "n4", label: "n4", type: null, properties: {} },
          { id: "n5", label: "Five", type: "9", properties: {} },
          { id: "2", label: "2", type: null, properties: {} },
        ],
        links: [
          { source: "n1", target: "2", type: "p", properties: { weight: 3 } },
          { source: "n2", target: "n3", type: "rel", properties: {} },
          { source: "n3", target: "n4", type: "5", properties: {} },
          { source: "n1", target: "n5", type: null, properties: { w: 3, z: 2 } },
        ],
      },
      notes: [
        "2 nodes without an id or repeated left out.",
        "2 links without both ends left out.",
        "1 node named only by links added.",
      ],
    });
  });

  it("says why it cannot use malformed content", () => {
    expect(parseGraph("{nodes:")).toEqual({
      ok: false,
      message: "This knowledge graph is not valid JSON.",
    });
    expect(parseGraph("[1,2]")).toMatchObject({ ok: false });
    expect(parseGraph('"text"')).toMatchObject({ ok: false });
    expect(parseGraph('{"nodes":{"a":1}}')).toMatchObject({ ok: false });
    expect(parseGraph("{}")).toEqual({ ok: true, graph: { nodes: [], links: [] }, notes: [] });
  });
});

describe("laying out a graph", () => {
  it("gives every node a finite position, apart from the others", () => {
    const g = parsed({
      ...sample,
      // A self-loop and a repeated link must not break the simulation.
      links: [...sample.links, { source: "bc", target: "bc" }, { source: "brca1", target: "bc" }],
    });
    const positions = layoutGraph(g);
    expect([...positions.keys()]).toEqual(["brca1", "bc", "olaparib"]);
    for (const p of positions.values()) {
      expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
    }
    const [a, b] = [positions.get("brca1")!, positions.get("bc")!];
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(10);
  });

  it("lays out 500 nodes, each at a finite position", () => {
    const nodes = Array.from({ length: 500 }, (_, i) => ({ id: `n${i}`, type: `t${i % 7}` }));
    const links = nodes.slice(1).map((n, i) => ({ source: n.id, target: `n${Math.floor(i / 3)}` }));
    // How fast is for the bench (npm run bench -- web), not a timed test.
    const positions = layoutGraph(parsed({ nodes, links }));
    expect(positions.size).toBe(500);
    for (const p of positions.values()) expect(Number.isFinite(p.x + p.y)).toBe(true);
  });

  it("fits the graph into the view and zooms about a point", () => {
    const t = fitTransform([
      { x: -100, y: -50 },
      { x: 100, y: 50 },
    ]);
    expect(t.x).toBeCloseTo(VIEW_WIDTH / 2);
    expect(t.y).toBeCloseTo(VIEW_HEIGHT / 2);
    const z = zoomAt(t, { x: 10, y: 20 }, 2);
    expect(z.k).toBeCloseTo(t.k * 2);
    // The point under the pointer stays where it was.
    expect((10 - z.x) / z.k).toBeCloseTo((10 - t.x) / t.k);
    expect(fitTransform([]).k).toBeGreaterThan(0);
  });
});

describe("node colours", () => {
  it("give each type its own colour, most frequent type first", () => {
    const counts = typeCounts(
      parsed({
        nodes: [
          { id: "a", type: "X" },
          { id: "b", type: "Y" },
          { id: "c", type: "Y" },
          { id: "d" },
        ],
      }).nodes,
    );
    expect(counts.map((c) => [c.type, c.count])).toEqual([
      ["Y", 2],
      ["(no type)", 1],
      ["X", 1],
    ]);
    expect(new Set(counts.map((c) => c.colour)).size).toBe(3);
  });
  it("resolve to plain colours for an exported file", () => {
    expect(graphStyle(PAGE_COLOURS)).toContain("var(--fg)");
    expect(graphStyle({ fg: "#111", muted: "#666", bg: "#fff", accent: "#00f" })).not.toContain(
      "var(",
    );
  });
});

describe("the knowledge graph viewer", () => {
  const render = (content: string | null) =>
    renderToStaticMarkup(
      <KnowledgeGraphViewer
        artifact={artifact({ type: "application/vnd.knowledge-graph", content })}
        onSaved={() => undefined}
      />,
    );

  it("draws each node as a labelled, focusable button with a type filter", () => {
    const html = render(JSON.stringify(sample));
    expect(html.match(/data-testid="graph-node"/g)).toHaveLength(3);
    expect(html).toContain('data-node-id="brca1" role="button" tabindex="0" aria-label="BRCA1"');
    expect(html.match(/<line class="kg-link"/g)).toHaveLength(2);
    expect(html).toContain("<legend>Node types</legend>");
    expect(html).toMatch(/type="checkbox" checked=""/);
    expect(html).toContain("Export PNG");
    expect(html).toContain("Export SVG");
    // No coordinate is NaN or Infinity.
    expect(html).not.toMatch(/NaN|Infinity/);
  });

  it("keeps labels as text", () => {
    const html = render(
      JSON.stringify({ nodes: [{ id: "x", label: "<script>alert(1)</script>" }], links: [] }),
    );
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;");
  });

  it("says clearly when the graph is empty or malformed", () => {
    expect(render('{"nodes":[],"links":[]}')).toContain("This knowledge graph is empty");
    expect(render("{oops")).toContain("not valid JSON");
  });
});
