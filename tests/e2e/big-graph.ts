// A graph-mode turn that merges a 500-node knowledge graph through our MCP worker, for the web
// client's tests and bench.
import type { LLMock } from "@copilotkit/aimock";

export const BIG_GRAPH_NODES = 500;
export const BIG_GRAPH_ASK = "draw the big benchmark graph";

export function addBigGraphFixtures(mock: LLMock): void {
  // Each node links to the next and to two pseudo-random others: about 3 links per node.
  const nodes = Array.from({ length: BIG_GRAPH_NODES }, (_, i) => ({
    id: `n${i}`,
    label: `Entity ${i}`,
    type: ["gene", "disease", "chemical", "species"][i % 4]!,
  }));
  const links = nodes.flatMap((_, i) =>
    [i + 1, (i * 7 + 3) % BIG_GRAPH_NODES, (i * 13 + 5) % BIG_GRAPH_NODES]
      .filter((j) => j < BIG_GRAPH_NODES && j !== i)
      .map((j) => ({ source: `n${i}`, target: `n${j}`, type: "related_to" })),
  );
  mock.on(
    { toolResultContains: `Merged ${BIG_GRAPH_NODES} nodes` },
    { content: "Here is the big graph." },
  );
  mock.onMessage(new RegExp(BIG_GRAPH_ASK), {
    toolCalls: [
      { id: "big", name: "mcp-remote__graph_merge", arguments: JSON.stringify({ nodes, links }) },
    ],
  });
}
