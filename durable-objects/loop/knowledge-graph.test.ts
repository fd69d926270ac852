import { describe, expect, it } from "vitest";
import { normalizeArtifactType } from "./artifact-types";
import { asKnowledgeGraph, mergeKnowledgeGraphs } from "./knowledge-graph";

describe("knowledge graphs", () => {
  it("merges nodes by id and links by source-target-type, first occurrence wins", () => {
    const a = asKnowledgeGraph({
      nodes: [
        { id: "g1", label: "BRCA1", type: "gene" },
        { id: "d1", label: "Breast cancer", type: "disease" },
      ],
      links: [{ source: "g1", target: "d1", type: "associated_with" }],
    })!;
    const b = asKnowledgeGraph({
      nodes: [
        { id: "g1", label: "brca1 (dup)", type: "gene" },
        { id: 7, label: "Olaparib", type: "chemical" },
      ],
      links: [
        { source: "g1", target: "d1", type: "associated_with" },
        { source: 7, target: "d1", type: "treats" },
        { source: "g1", target: "d1", type: "mutated_in" },
      ],
    })!;
    const merged = mergeKnowledgeGraphs([a, b]);
    expect(merged.nodes.map((n) => [n.id, n.label])).toEqual([
      ["g1", "BRCA1"],
      ["d1", "Breast cancer"],
      ["7", "Olaparib"],
    ]);
    expect(merged.links.map((l) => `${l.source}-${l.type}-${l.target}`)).toEqual([
      "g1-associated_with-d1",
      "7-treats-d1",
      "g1-mutated_in-d1",
    ]);
    expect(mergeKnowledgeGraphs([merged, merged])).toEqual(merged);
  });

  it("does not mistake other JSON for a graph", () => {
    expect(asKnowledgeGraph({ nodes: [], links: [] })).toBeNull();
    expect(asKnowledgeGraph({ items: [1, 2] })).toBeNull();
    expect(asKnowledgeGraph("nodes")).toBeNull();
  });
});

describe("artifact type normalisation", () => {
  it.each([
    ["code", "application/vnd.ant.code"],
    ["application/vnd.ant.python", "application/vnd.ant.code"],
    ["code/javascript", "application/vnd.ant.code"],
    ["image/png", "image/png"],
    ["knowledge-graph", "application/vnd.knowledge-graph"],
    ["graph", "application/vnd.knowledge-graph"],
    ["", "text/markdown"],
    ["text", "text/markdown"],
    ["bibliography", "application/vnd.bibliography"],
    ["application/json", "application/json"],
  ])("%s → %s", (input, expected) => expect(normalizeArtifactType(input)).toBe(expected));
});
