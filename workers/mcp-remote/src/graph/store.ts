// Reading and changing one conversation's graph. Writes are upserts, so merging is idempotent.
import { z } from "zod";
import { mergePatch } from "./merge-patch";

export const NodeInput = z.object({
  id: z.string().min(1).max(200),
  label: z.string().min(1).max(300),
  type: z.string().min(1).max(100).default("entity"),
  properties: z.record(z.string(), z.unknown()).default({}),
});
export const LinkInput = z.object({
  source: z.string().min(1).max(200),
  target: z.string().min(1).max(200),
  type: z.string().min(1).max(100).default("related_to"),
  properties: z.record(z.string(), z.unknown()).default({}),
});
export type GraphNode = z.infer<typeof NodeInput>;
export type GraphLink = z.infer<typeof LinkInput>;
export interface Graph {
  nodes: GraphNode[];
  links: GraphLink[];
}

/** A link's identity: its ends and type (JSON, so no id can forge another link's key). */
const linkKey = (l: Pick<GraphLink, "source" | "target" | "type">) =>
  JSON.stringify([l.source, l.target, l.type]);

// D1 allows 100 bound parameters per statement: 5 per row, 20 rows a statement at most.
const ROWS_PER_STATEMENT = 20;
/** A conversation's graph stays small enough to read whole and to draw. */
export const MAX_NODES = 5000;
export const MAX_LINKS = 20_000;
/**
 * Properties are free-form, so the counts alone do not bound a graph: each node's or link's
 * properties, and the whole graph as JSON, have a size limit too (every graph tool returns the
 * graph, and the Conversation DO keeps it as an artifact).
 */
export const MAX_PROPERTIES_CHARS = 4_000;
export const MAX_GRAPH_CHARS = 4_000_000;

export type GraphErrorCode = "graph_too_large" | "properties_too_large" | "unknown_conversation";
export class GraphError extends Error {
  override readonly name = "GraphError";
  constructor(
    readonly code: GraphErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export async function readGraph(db: D1Database, conversationId: string): Promise<Graph> {
  const [nodes, links] = await db.batch([
    db
      .prepare(
        "SELECT id, label, type, properties FROM graph_nodes WHERE conversation_id = ? ORDER BY id",
      )
      .bind(conversationId),
    db
      .prepare(
        "SELECT source, target, type, properties FROM graph_links WHERE conversation_id = ? ORDER BY source, target, type",
      )
      .bind(conversationId),
  ]);
  return {
    nodes: (nodes!.results as Array<Record<string, string>>).map((r) => ({
      id: r.id!,
      label: r.label!,
      type: r.type!,
      properties: JSON.parse(r.properties!),
    })),
    links: (links!.results as Array<Record<string, string>>).map((r) => ({
      source: r.source!,
      target: r.target!,
      type: r.type!,
      properties: JSON.parse(r.properties!),
    })),
  };
}

/**
 * Adds or updates nodes and links; links to nodes that do not exist are refused. Properties are
 * merged (JSON merge patch: a null value removes a key), so merging the same graph twice changes
 * nothing.
 */
export async function mergeGraph(
  db: D1Database,
  conversationId: string,
  graph: Graph,
): Promise<{ nodes: number; links: number; refused: GraphLink[] }> {
  const current = await readGraph(db, conversationId);
  const known = new Set([...current.nodes.map((n) => n.id), ...graph.nodes.map((n) => n.id)]);
  const links = graph.links.filter((l) => known.has(l.source) && known.has(l.target));
  const refused = graph.links.filter((l) => !links.includes(l));
  const linkKeys = new Set([...current.links, ...links].map(linkKey));
  if (known.size > MAX_NODES || linkKeys.size > MAX_LINKS)
    throw new GraphError(
      "graph_too_large",
      `The graph would hold ${known.size} nodes and ${linkKeys.size} links; the limit is ${MAX_NODES} nodes and ${MAX_LINKS} links. Remove some first.`,
    );
  checkSize(current, graph.nodes, links);
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < graph.nodes.length; i += ROWS_PER_STATEMENT) {
    const chunk = graph.nodes.slice(i, i + ROWS_PER_STATEMENT);
    statements.push(
      db
        .prepare(
          `INSERT INTO graph_nodes (conversation_id, id, label, type, properties) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?)").join(", ")}
           ON CONFLICT(conversation_id, id) DO UPDATE SET label = excluded.label, type = excluded.type,
             properties = json_patch(graph_nodes.properties, excluded.properties)`,
        )
        .bind(
          ...chunk.flatMap((n) => [
            conversationId,
            n.id,
            n.label,
            n.type,
            JSON.stringify(n.properties),
          ]),
        ),
    );
  }
  for (let i = 0; i < links.length; i += ROWS_PER_STATEMENT) {
    const chunk = links.slice(i, i + ROWS_PER_STATEMENT);
    statements.push(
      db
        .prepare(
          `INSERT INTO graph_links (conversation_id, source, target, type, properties) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?)").join(", ")}
           ON CONFLICT(conversation_id, source, target, type) DO UPDATE SET
             properties = json_patch(graph_links.properties, excluded.properties)`,
        )
        .bind(
          ...chunk.flatMap((l) => [
            conversationId,
            l.source,
            l.target,
            l.type,
            JSON.stringify(l.properties),
          ]),
        ),
    );
  }
  if (statements.length > 0) {
    try {
      await db.batch(statements);
    } catch (err) {
      // The graph hangs off a conversation row; without one there is nothing to attach it to.
      if (err instanceof Error && /FOREIGN KEY/i.test(err.message))
        throw new GraphError(
          "unknown_conversation",
          `Conversation ${conversationId} is not in the database, so it can hold no graph.`,
        );
      throw err;
    }
  }
  // The same node or link twice in one call is merged once, and counted once.
  return {
    nodes: new Set(graph.nodes.map((n) => n.id)).size,
    links: new Set(links.map(linkKey)).size,
    refused,
  };
}

/** Refuses a merge that would leave a node's or link's properties, or the graph, too large. */
function checkSize(current: Graph, nodes: GraphNode[], links: GraphLink[]): void {
  const byId = new Map(current.nodes.map((n) => [n.id, n]));
  for (const n of nodes) {
    const before = byId.get(n.id);
    const properties = mergePatch(
      before?.properties ?? {},
      n.properties,
    ) as GraphNode["properties"];
    byId.set(n.id, { ...n, properties });
  }
  const byKey = new Map(current.links.map((l) => [linkKey(l), l]));
  for (const l of links) {
    const before = byKey.get(linkKey(l));
    const properties = mergePatch(
      before?.properties ?? {},
      l.properties,
    ) as GraphLink["properties"];
    byKey.set(linkKey(l), { ...l, properties });
  }
  let total = 0;
  const measure = (what: string, item: GraphNode | GraphLink) => {
    const size = JSON.stringify(item.properties).length;
    if (size > MAX_PROPERTIES_CHARS)
      throw new GraphError(
        "properties_too_large",
        `The properties of ${what} would take ${size} characters; the limit is ${MAX_PROPERTIES_CHARS}. Keep properties short (ids, numbers, a sentence) or remove some with null.`,
      );
    total += JSON.stringify(item).length + 1;
  };
  for (const n of byId.values()) measure(`node '${n.id}'`, n);
  for (const l of byKey.values()) measure(`link ${l.source} -[${l.type}]-> ${l.target}`, l);
  if (total > MAX_GRAPH_CHARS)
    throw new GraphError(
      "graph_too_large",
      `The graph would take ${total} characters as JSON; the limit is ${MAX_GRAPH_CHARS}. Remove nodes or properties first.`,
    );
}

/**
 * Removes nodes (with every link that touches them) and individual links, and counts what was
 * really there: ids that name nothing remove nothing.
 */
export async function removeFromGraph(
  db: D1Database,
  conversationId: string,
  nodeIds: string[],
  links: Array<Pick<GraphLink, "source" | "target" | "type">>,
): Promise<{ nodes: number; links: number }> {
  const statements: D1PreparedStatement[] = [];
  const nodeStatements = new Set<number>();
  for (const id of nodeIds) {
    statements.push(
      db
        .prepare("DELETE FROM graph_links WHERE conversation_id = ? AND (source = ? OR target = ?)")
        .bind(conversationId, id, id),
    );
    nodeStatements.add(statements.length);
    statements.push(
      db
        .prepare("DELETE FROM graph_nodes WHERE conversation_id = ? AND id = ?")
        .bind(conversationId, id),
    );
  }
  for (const l of links) {
    statements.push(
      db
        .prepare(
          "DELETE FROM graph_links WHERE conversation_id = ? AND source = ? AND target = ? AND type = ?",
        )
        .bind(conversationId, l.source, l.target, l.type),
    );
  }
  const removed = { nodes: 0, links: 0 };
  if (statements.length === 0) return removed;
  const results = await db.batch(statements);
  results.forEach((r, i) => {
    removed[nodeStatements.has(i) ? "nodes" : "links"] += r.meta.changes;
  });
  return removed;
}

/** The nodes within `depth` links of a node, and the links among them. */
export function neighbourhood(graph: Graph, nodeId: string, depth: number): Graph {
  const seen = new Set([nodeId]);
  let frontier = [nodeId];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const l of graph.links) {
      for (const [a, b] of [
        [l.source, l.target],
        [l.target, l.source],
      ] as const) {
        if (frontier.includes(a) && !seen.has(b)) {
          seen.add(b);
          next.push(b);
        }
      }
    }
    frontier = next;
  }
  return {
    nodes: graph.nodes.filter((n) => seen.has(n.id)),
    links: graph.links.filter((l) => seen.has(l.source) && seen.has(l.target)),
  };
}

/** A shortest path (links followed in either direction), or null. */
export function shortestPath(graph: Graph, from: string, to: string): Graph | null {
  const previous = new Map<string, { node: string; link: GraphLink }>();
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === to) break;
    for (const l of graph.links) {
      const other = l.source === at ? l.target : l.target === at ? l.source : null;
      if (other && !seen.has(other)) {
        seen.add(other);
        previous.set(other, { node: at, link: l });
        queue.push(other);
      }
    }
  }
  if (!seen.has(to)) return null;
  const ids = [to];
  const links: GraphLink[] = [];
  for (let at = to; at !== from;) {
    const step = previous.get(at)!;
    links.unshift(step.link);
    ids.unshift(step.node);
    at = step.node;
  }
  return { nodes: ids.map((id) => graph.nodes.find((n) => n.id === id)!).filter(Boolean), links };
}
