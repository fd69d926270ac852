// Connect and Disconnect of a saved MCP server that wants an OAuth sign-in (mounted under
// /api/mcp-servers, behind requireUser). The callback lives in mcp-oauth.ts.
import { and, eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { Display } from "../../../../durable-objects/mcp/oauth/connection-store";
import { secretBox } from "../../../../durable-objects/mcp/oauth/secret-box";
import type { SignInDeps } from "../../../../durable-objects/mcp/oauth/sign-in-flow";
import type { AppEnv } from "../app-types";
import { isDevelopment } from "../auth/secrets";
import type { Env } from "../../../../shared/env";
import { mcpServers } from "../../../../shared/db/schema";
import { ApiError, notFound } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { IdParam } from "./conversations";

export const ConnectBody = z
  .object({
    display: Display.default("popup"),
    // For servers that do not let apps register themselves: a client the user created there.
    clientId: z.string().min(1).max(500).optional(),
    clientSecret: z.string().min(1).max(2000).optional(),
  })
  .strict();

/**
 * The sign-in flow, loaded when a route uses it: with it comes the MCP SDK's OAuth client, whose
 * schemas are built as it loads (start-up work every request would otherwise pay for).
 */
export const signInFlow = () => import("../../../../durable-objects/mcp/oauth/sign-in-flow");

export async function signInDeps(env: Env, requestUrl: string): Promise<SignInDeps> {
  try {
    return {
      db: env.DB,
      box: await secretBox(env),
      origin: new URL(requestUrl).origin,
      allowLocal: isDevelopment(env),
      dnsResolver: env.MCP_DNS_RESOLVER,
    };
  } catch (err) {
    throw new ApiError(500, "not_configured", err instanceof Error ? err.message : String(err));
  }
}

/** Forgets (and revokes) the caller's sign-in to one of their servers. */
export async function forgetSignIn(c: Context<AppEnv>, serverId: string) {
  const { disconnect } = await signInFlow();
  return disconnect(await signInDeps(c.env, c.req.url), { userId: c.get("user").id, serverId });
}

export const mcpServerSignInRoutes = new Hono<AppEnv>()
  .post("/:id/connect", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const body = await parseJsonBody(c, ConnectBody);
    const userId = c.get("user").id;
    const [server] = await c
      .get("db")
      .select()
      .from(mcpServers)
      .where(and(eq(mcpServers.id, id), eq(mcpServers.userId, userId)))
      .limit(1);
    if (!server) throw notFound("MCP server");
    const { startSignIn } = await signInFlow();
    return c.json(
      await startSignIn(await signInDeps(c.env, c.req.url), userId, server, {
        display: body.display,
        ...(body.clientId && { clientId: body.clientId }),
        ...(body.clientSecret && { clientSecret: body.clientSecret }),
      }),
    );
  })
  .post("/:id/disconnect", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const userId = c.get("user").id;
    const [server] = await c
      .get("db")
      .select({ id: mcpServers.id })
      .from(mcpServers)
      .where(and(eq(mcpServers.id, id), eq(mcpServers.userId, userId)))
      .limit(1);
    if (!server) throw notFound("MCP server");
    return c.json(await forgetSignIn(c, id));
  });
