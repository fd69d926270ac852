// The prompts and resources of a conversation's MCP servers, for the composer (mounted under
// /api/conversations, behind requireUser): list, get a prompt, complete an argument, read and
// attach a resource. Each request opens its own short session with the servers it needs.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type Context, Hono } from "hono";
import {
  McpAttachRequest,
  McpCompletionRequest,
  type McpCompletionResult,
  type McpCatalogProblem,
  McpPromptRequest,
  type McpPromptList,
  type McpResourceList,
  McpResourceTarget,
} from "../../../../durable-objects/protocol/rest";
import type { ServerConfig } from "../../../../durable-objects/conversation/mcp-servers";
import type { AppEnv } from "../app-types";
import { toConversation } from "../db/conversations";
import { conversationFor } from "../db/conversation-access";
import { ApiError } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { attachResource } from "../mcp-catalog/attach-resource";
import type { CatalogScope } from "../mcp-catalog/catalog-session";
import { getPrompt, listPrompts } from "../mcp-catalog/prompts";
import { listResources, readResource, resolveResourceUri } from "../mcp-catalog/resources";
import { IdParam } from "./conversations";

/** The MCP client loads with the first request that needs it, not when the worker starts. */
const catalogSession = () => import("../mcp-catalog/catalog-session");

/** Suggestions beyond this many are not worth showing under a text field. */
const MAX_COMPLETIONS = 50;

async function scopeOf(c: Context<AppEnv>) {
  // The owner's servers and sign-ins: a member may not use them through the catalog.
  const { row } = await conversationFor(
    c.get("db"),
    c.get("user").id,
    parseParam(c, "id", IdParam),
    "manage",
  );
  const scope: CatalogScope = {
    env: c.env,
    userId: c.get("user").id,
    origin: new URL(c.req.url).origin,
  };
  const session = await catalogSession();
  const servers = await session.conversationServers(scope, toConversation(row).settings);
  return { scope, servers, session, conversationId: row.id };
}

/** Every server's part of a listing; a server that fails is a problem, not a failed request. */
async function fromEachServer<T>(
  scope: CatalogScope,
  servers: ServerConfig[],
  list: (client: Client, timeoutMs: number, server: ServerConfig) => Promise<T>,
): Promise<{ results: T[]; problems: McpCatalogProblem[] }> {
  const { withCatalogSession } = await catalogSession();
  const results: T[] = [];
  const problems: McpCatalogProblem[] = [];
  await Promise.all(
    servers.map(async (s) => {
      try {
        results.push(await withCatalogSession(scope, s, (client, t) => list(client, t, s)));
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError(502, "upstream_failed", String(err));
        const reason = (e.details as { reason?: string } | undefined)?.reason;
        problems.push({ server: s.name, code: reason ?? e.code, message: e.message });
      }
    }),
  );
  problems.sort((a, b) => a.server.localeCompare(b.server));
  return { results, problems };
}

export const mcpCatalogRoutes = new Hono<AppEnv>()
  .get("/:id/mcp/prompts", async (c) => {
    const { scope, servers } = await scopeOf(c);
    const { results, problems } = await fromEachServer(scope, servers, (client, timeout, s) =>
      listPrompts(client, s.name, timeout),
    );
    const items = results
      .flat()
      .sort((a, b) => `${a.server}:${a.name}`.localeCompare(`${b.server}:${b.name}`));
    return c.json({ items, problems } satisfies McpPromptList);
  })
  .post("/:id/mcp/prompts/get", async (c) => {
    const { scope, servers, session } = await scopeOf(c);
    const body = await parseJsonBody(c, McpPromptRequest);
    const server = session.serverNamed(servers, body.server);
    return c.json(
      await session.withCatalogSession(scope, server, (client, timeout) =>
        getPrompt(client, body, timeout),
      ),
    );
  })
  .post("/:id/mcp/complete", async (c) => {
    const { scope, servers, session } = await scopeOf(c);
    const body = await parseJsonBody(c, McpCompletionRequest);
    const server = session.serverNamed(servers, body.server);
    const result = await session.withCatalogSession(
      scope,
      server,
      async (client, timeout): Promise<McpCompletionResult> => {
        // No completion offered: nothing to suggest, and nothing wrong either.
        if (!client.getServerCapabilities()?.completions)
          return { supported: false, values: [], hasMore: false };
        const answer = await client.complete(
          {
            ref:
              body.ref.type === "prompt"
                ? { type: "ref/prompt", name: body.ref.name }
                : { type: "ref/resource", uri: body.ref.uriTemplate },
            argument: body.argument,
            ...(body.context && { context: { arguments: body.context } }),
          },
          { timeout },
        );
        const values = answer.completion.values.slice(0, MAX_COMPLETIONS);
        return {
          supported: true,
          values,
          hasMore: !!answer.completion.hasMore || answer.completion.values.length > values.length,
          ...(answer.completion.total !== undefined && { total: answer.completion.total }),
        };
      },
    );
    return c.json(result);
  })
  .get("/:id/mcp/resources", async (c) => {
    const { scope, servers } = await scopeOf(c);
    const { results, problems } = await fromEachServer(scope, servers, (client, timeout, s) =>
      listResources(client, s.name, timeout),
    );
    const byName = (a: { server: string; name: string }, b: { server: string; name: string }) =>
      `${a.server}:${a.name}`.localeCompare(`${b.server}:${b.name}`);
    return c.json({
      resources: results.flatMap((r) => r.resources).sort(byName),
      templates: results.flatMap((r) => r.templates).sort(byName),
      problems,
    } satisfies McpResourceList);
  })
  .post("/:id/mcp/resources/read", async (c) => {
    const { scope, servers, session } = await scopeOf(c);
    const body = await parseJsonBody(c, McpResourceTarget);
    const server = session.serverNamed(servers, body.server);
    const uri = resolveResourceUri(body);
    return c.json(
      await session.withCatalogSession(scope, server, (client, timeout) =>
        readResource(client, server.name, uri, timeout),
      ),
    );
  })
  .post("/:id/mcp/resources/attach", async (c) => {
    const { scope, servers, session, conversationId } = await scopeOf(c);
    const body = await parseJsonBody(c, McpAttachRequest);
    const server = session.serverNamed(servers, body.server);
    const uri = resolveResourceUri(body);
    const read = await session.withCatalogSession(scope, server, (client, timeout) =>
      readResource(client, server.name, uri, timeout),
    );
    return c.json(
      await attachResource({
        db: c.get("db"),
        bucket: c.env.ARTIFACTS,
        conversationId,
        read,
        maxInlineChars: body.maxInlineChars,
      }),
    );
  });
