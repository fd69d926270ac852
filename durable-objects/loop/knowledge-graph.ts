// Knowledge graphs: recognising them in tool output and merging them across calls.
import { z } from "zod";

export const GraphNode = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    label: z.string().optional(),
    type: z.string().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();
export const GraphLink = z
  .object({
    source: z.union([z.string(), z.number()]).transform(String),
    target: z.union([z.string(), z.number()]).transform(String),
    type: z.string().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();
export const KnowledgeGraph = z.object({ nodes: z.array(GraphNode), links: z.array(GraphLink) });
export type KnowledgeGraph = z.infer<typeof KnowledgeGraph>;

export function asKnowledgeGraph(value: unknown): KnowledgeGraph | null {
  const parsed = KnowledgeGraph.safeParse(value);
  return parsed.success && parsed.data.nodes.length > 0 ? parsed.data : null;
}

/** Nodes merged by id (first wins), links by source–target–type. */
export function mergeKnowledgeGraphs(graphs: readonly KnowledgeGraph[]): KnowledgeGraph {
  const nodes = new Map<string, KnowledgeGraph["nodes"][number]>();
  const links = new Map<string, KnowledgeGraph["links"][number]>();
  for (const g of graphs) {
    for (const n of g.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);
    for (const l of g.links) {
      const key = `${l.source}\u0000${l.target}\u0000${l.type ?? ""}`;
      if (!links.has(key)) links.set(key, l);
    }
  }
  return { nodes: [...nodes.values()], links: [...links.values()] };
}
