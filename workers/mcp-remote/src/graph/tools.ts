// Graph-mode tools: a conversation's knowledge graph, reached only with the scoped context the
// Conversation DO injects (`databaseContext`), verified here.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { verifyContextToken } from "../../../../shared/context-token";
import type { McpEnv } from "../env";
import { refused, structured } from "../tool-kit";
import { KnowledgeGraphOutput } from "./output-schema";
import {
  type Graph,
  GraphError,
  LinkInput,
  mergeGraph,
  neighbourhood,
  NodeInput,
  readGraph,
  removeFromGraph,
  shortestPath,
} from "./store";

const DatabaseContext = z
  .object({
    conversationId: z.string().min(1),
    apiBase: z.string().optional(),
    token: z.string().min(1),
  })
  .describe("Injected by the chat platform; never filled by the model.");

async function scope(
  env: McpEnv,
  ctx: z.infer<typeof DatabaseContext>,
): Promise<string | { refused: string }> {
  const verdict = await verifyContextToken(env.GRAPH_CONTEXT_SECRET ?? "", ctx.token);
  if (!verdict.ok) return { refused: `Graph access refused: ${verdict.reason}.` };
  if (verdict.claims.conversationId !== ctx.conversationId)
    return { refused: "Graph access refused: the context is for another conversation." };
  return ctx.conversationId;
}

const asGraph = (g: Graph, summary: string) =>
  structured({ nodes: g.nodes, links: g.links }, summary);

export function registerGraphTools(server: McpServer, env: McpEnv): void {
  const readOnly = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };

  server.registerTool(
    "graph_read",
    {
      title: "Read the conversation's knowledge graph",
      description: "Returns every node and link of this conversation's knowledge graph.",
      inputSchema: { databaseContext: DatabaseContext },
      outputSchema: KnowledgeGraphOutput,
      annotations: readOnly,
    },
    async ({ databaseContext }) => {
      const cid = await scope(env, databaseContext);
      if (typeof cid !== "string") return refused(cid.refused);
      const g = await readGraph(env.DB, cid);
      return asGraph(g, `The graph has ${g.nodes.length} nodes and ${g.links.length} links.`);
    },
  );

  server.registerTool(
    "graph_merge",
    {
      title: "Add or update nodes and links",
      description:
        "Adds or updates nodes (by id) and links (by source, target and type) in the conversation's knowledge graph. Properties are merged into existing ones (a null value removes a property). Merging the same graph twice changes nothing.",
      inputSchema: {
        databaseContext: DatabaseContext,
        nodes: z.array(NodeInput).max(500).default([]),
        links: z.array(LinkInput).max(2000).default([]),
      },
      outputSchema: KnowledgeGraphOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ databaseContext, nodes, links }) => {
      const cid = await scope(env, databaseContext);
      if (typeof cid !== "string") return refused(cid.refused);
      let result: Awaited<ReturnType<typeof mergeGraph>>;
      try {
        result = await mergeGraph(env.DB, cid, { nodes, links });
      } catch (err) {
        if (err instanceof GraphError) return refused(`${err.message} (${err.code})`);
        throw err;
      }
      const g = await readGraph(env.DB, cid);
      const note = result.refused.length
        ? ` ${result.refused.length} links were skipped because an end node does not exist: ${result.refused
            .slice(0, 10)
            .map((l) => `${l.source} -[${l.type}]-> ${l.target}`)
            .join("; ")}.`
        : "";
      return asGraph(g, `Merged ${result.nodes} nodes and ${result.links} links.${note}`);
    },
  );

  server.registerTool(
    "graph_remove",
    {
      title: "Remove nodes and links",
      description:
        "Removes nodes (and every link touching them) and individual links from the conversation's knowledge graph.",
      inputSchema: {
        databaseContext: DatabaseContext,
        nodeIds: z.array(z.string().min(1)).max(500).default([]),
        links: z
          .array(LinkInput.pick({ source: true, target: true, type: true }))
          .max(500)
          .default([]),
      },
      outputSchema: KnowledgeGraphOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ databaseContext, nodeIds, links }) => {
      const cid = await scope(env, databaseContext);
      if (typeof cid !== "string") return refused(cid.refused);
      const removed = await removeFromGraph(env.DB, cid, nodeIds, links);
      return asGraph(
        await readGraph(env.DB, cid),
        `Removed ${removed.nodes} nodes and ${removed.links} links.`,
      );
    },
  );

  server.registerTool(
    "graph_neighbors",
    {
      title: "Neighbours of a node",
      description: "The nodes within `depth` links of a node, with the links among them.",
      inputSchema: {
        databaseContext: DatabaseContext,
        nodeId: z.string().min(1),
        depth: z.number().int().min(1).max(4).default(1),
      },
      outputSchema: KnowledgeGraphOutput,
      annotations: readOnly,
    },
    async ({ databaseContext, nodeId, depth }) => {
      const cid = await scope(env, databaseContext);
      if (typeof cid !== "string") return refused(cid.refused);
      const g = await readGraph(env.DB, cid);
      if (!g.nodes.some((n) => n.id === nodeId))
        return refused(`There is no node '${nodeId}' in this graph.`);
      return asGraph(
        neighbourhood(g, nodeId, depth),
        `Neighbourhood of ${nodeId} (depth ${depth}).`,
      );
    },
  );

  server.registerTool(
    "graph_path",
    {
      title: "Path between two nodes",
      description:
        "A shortest chain of links between two nodes, following links in either direction.",
      inputSchema: {
        databaseContext: DatabaseContext,
        from: z.string().min(1),
        to: z.string().min(1),
      },
      outputSchema: KnowledgeGraphOutput,
      annotations: readOnly,
    },
    async ({ databaseContext, from, to }) => {
      const cid = await scope(env, databaseContext);
      if (typeof cid !== "string") return refused(cid.refused);
      const g = await readGraph(env.DB, cid);
      // An unknown end is a different mistake from two nodes that are not connected.
      const missing = [from, to].find((id) => !g.nodes.some((n) => n.id === id));
      if (missing !== undefined) return refused(`There is no node '${missing}' in this graph.`);
      const path = shortestPath(g, from, to);
      return path
        ? asGraph(path, `A path of ${path.links.length} links.`)
        : refused(`No path between '${from}' and '${to}'.`);
    },
  );
}
