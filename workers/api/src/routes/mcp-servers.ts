// The per-user registry of remote MCP servers, and "test the connection" for a saved server, a
// server about to be added, and our own built-in one.
import { and, asc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { McpServer } from "../../../../durable-objects/protocol/rest";
import {
  BUILTIN_SERVER,
  DEFAULT_MAX_TOTAL_MS,
  serversForUser,
} from "../../../../durable-objects/conversation/mcp-servers";
import { callbackUrl } from "../../../../durable-objects/mcp/oauth/client-metadata";
import { connectionsOfUser } from "../../../../durable-objects/mcp/oauth/connection-store";
import { signInStatus } from "../../../../durable-objects/mcp/oauth/connection-status";
import { internetRoute } from "../../../../durable-objects/mcp/mcp-route";
import type { probeServer as ProbeServer } from "../../../../durable-objects/mcp/probe-server";
import { checkServerUrl } from "../../../../durable-objects/mcp/url-guard";
import type { AppEnv } from "../app-types";
import { isDevelopment } from "../auth/secrets";
import type { Db } from "../../../../shared/db/client";
import { mcpServers } from "../../../../shared/db/schema";
import { ApiError, notFound } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { IdParam } from "./conversations";
import { forgetSignIn, signInDeps } from "./mcp-server-sign-in";
import { tellRunningTurns } from "./mcp-settings-notice";

/** The MCP client loads when a server is tested, not when the worker starts. */
const probeServer: typeof ProbeServer = async (target) =>
  (await import("../../../../durable-objects/mcp/probe-server")).probeServer(target);

type Row = typeof mcpServers.$inferSelect;

const HeaderName = z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "must be a valid HTTP header name");
const Fields = {
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "use 1–64 letters, digits, '_', '-' or '.'")
    // The built-in server's tools go by this name; a saved server of the same name is never used.
    .refine(
      (name) => name !== BUILTIN_SERVER,
      `'${BUILTIN_SERVER}' is the built-in server's name; choose another`,
    ),
  url: z.string().url().max(2000),
  headers: z.record(HeaderName, z.string().max(4000)).optional(),
  enabled: z.boolean().optional(),
  timeoutMs: z.number().int().min(1000).max(600_000).optional(),
  enabledTools: z.array(z.string().min(1).max(200)).max(500).nullable().optional(),
  maxTotalTimeoutMs: z.number().int().min(1000).max(3_600_000).optional(),
};
export const CreateBody = z.object(Fields).strict();
export const PatchBody = z.object(Fields).partial().strict();
export const TestBody = z.object({ url: Fields.url, headers: Fields.headers }).strict();

const mask = (value: string) => (value.length <= 4 ? "••••" : `••••${value.slice(-4)}`);

/** A server's headers as stored, secret values included: for connecting, never for answers. */
function storedHeaders(row: Row): Record<string, string> {
  const headers = z.record(z.string(), z.string()).safeParse(JSON.parse(row.headers));
  return headers.success ? headers.data : {};
}

export function toMcpServer(row: Row): McpServer {
  const tools = row.enabledTools
    ? z.array(z.string()).safeParse(JSON.parse(row.enabledTools))
    : null;
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    headers: Object.fromEntries(Object.entries(storedHeaders(row)).map(([k, v]) => [k, mask(v)])),
    enabled: row.enabled,
    timeoutMs: row.timeoutMs,
    enabledTools: tools?.success ? tools.data : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    maxTotalTimeoutMs: row.maxTotalMs,
  };
}

function assertSafeUrl(url: string, allowLocal: boolean) {
  const check = checkServerUrl(url, { allowLocal });
  if (!check.ok)
    throw new ApiError(400, "validation_failed", `MCP server URL refused: ${check.reason}`);
}

async function getOwned(db: Db, userId: string, id: string): Promise<Row> {
  const rows = await db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.id, id), eq(mcpServers.userId, userId)))
    .limit(1);
  if (!rows[0]) throw notFound("MCP server");
  return rows[0];
}

async function assertNameFree(db: Db, userId: string, name: string, exceptId?: string) {
  const rows = await db
    .select({ id: mcpServers.id })
    .from(mcpServers)
    .where(and(eq(mcpServers.userId, userId), eq(mcpServers.name, name)));
  if (rows.some((r) => r.id !== exceptId)) {
    throw new ApiError(409, "conflict", `You already have an MCP server named '${name}'.`);
  }
}

export const mcpServerRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const rows = await c
      .get("db")
      .select()
      .from(mcpServers)
      .where(eq(mcpServers.userId, c.get("user").id))
      .orderBy(asc(mcpServers.name));
    const signIns = new Map(
      (await connectionsOfUser(c.env.DB, c.get("user").id)).map((r) => [r.server_id, r]),
    );
    return c.json({
      items: rows.map((row) => {
        const signIn = signIns.get(row.id);
        return { ...toMcpServer(row), ...(signIn && { signIn: signInStatus(signIn) }) };
      }),
    });
  })
  // Before saving: the URL and headers from the add form.
  .post("/test", async (c) => {
    const body = await parseJsonBody(c, TestBody);
    return c.json(
      await probeServer({
        url: body.url,
        headers: body.headers ?? {},
        via: internetRoute({
          allowLocal: isDevelopment(c.env),
          dnsResolver: c.env.MCP_DNS_RESOLVER,
        }),
        // Not saved yet: only find out whether it wants a sign-in.
        authProvider: new (
          await import("../../../../durable-objects/mcp/oauth/sign-in-detector")
        ).SignInDetector(new URL(body.url).host, callbackUrl(new URL(c.req.url).origin)),
      }),
    );
  })
  // Our own MCP worker, through its service binding (it is not in the registry).
  .post("/builtin/test", async (c) => {
    const servers = await serversForUser(c.env, c.get("user").id);
    const builtin = servers.find((s) => s.builtin)!;
    const result = await probeServer({
      url: builtin.url,
      headers: builtin.headers,
      via: { kind: "binding", fetch: (u, i) => c.env.MCP_REMOTE.fetch(new Request(u, i)) },
    });
    if (result.ok) return c.json(result);
    const what = result.error.message.split(". ")[0];
    // Reached but refused: the worker is there, the token the two workers share is not the same.
    const fix =
      result.error.code === "unauthorized"
        ? "MCP_REMOTE_TOKEN must be the same in both workers: set one value with `wrangler secret put MCP_REMOTE_TOKEN --env <env>`, and again with `-c workers/mcp-remote/wrangler.toml` (locally, npm start keeps .dev.vars and workers/mcp-remote/.dev.vars equal)."
        : "Check that workers/mcp-remote is deployed and bound as MCP_REMOTE; locally, run both workers with wrangler dev.";
    return c.json({
      ok: false,
      error: {
        code: result.error.code,
        message: `The built-in MCP server '${BUILTIN_SERVER}' is not available (${what}). ${fix}`,
      },
    });
  })
  // A saved server, with its real (unmasked) headers.
  .post("/:id/test", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const row = await getOwned(c.get("db"), c.get("user").id, id);
    const headers = storedHeaders(row);
    const deps = await signInDeps(c.env, c.req.url);
    return c.json(
      await probeServer({
        url: row.url,
        headers,
        via: internetRoute({
          allowLocal: isDevelopment(c.env),
          dnsResolver: c.env.MCP_DNS_RESOLVER,
        }),
        // This user's own sign-in, if any; a missing one is reported as needs_sign_in.
        authProvider: (
          await import("../../../../durable-objects/mcp/oauth/background-provider")
        ).backgroundProvider(
          deps.db,
          deps.box,
          c.get("user").id,
          { id: row.id, name: row.name, headers },
          deps.origin,
        ),
      }),
    );
  })
  .post("/", async (c) => {
    const body = await parseJsonBody(c, CreateBody);
    assertSafeUrl(body.url, isDevelopment(c.env));
    const db = c.get("db");
    await assertNameFree(db, c.get("user").id, body.name);
    const now = Date.now();
    const [row] = await db
      .insert(mcpServers)
      .values({
        id: crypto.randomUUID(),
        userId: c.get("user").id,
        name: body.name,
        url: body.url,
        headers: JSON.stringify(body.headers ?? {}),
        enabled: body.enabled ?? true,
        timeoutMs: body.timeoutMs ?? 60_000,
        enabledTools: body.enabledTools ? JSON.stringify(body.enabledTools) : null,
        maxTotalMs: body.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_MS,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return c.json(toMcpServer(row!), 201);
  })
  .patch("/:id", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const body = await parseJsonBody(c, PatchBody);
    const db = c.get("db");
    const current = await getOwned(db, c.get("user").id, id);
    if (body.url) assertSafeUrl(body.url, isDevelopment(c.env));
    if (body.name && body.name !== current.name)
      await assertNameFree(db, c.get("user").id, body.name, id);
    // Tokens were issued for the old address; they are never sent to a new one.
    if (body.url && body.url !== current.url) await forgetSignIn(c, id);
    const [row] = await db
      .update(mcpServers)
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.url !== undefined && { url: body.url }),
        ...(body.headers !== undefined && { headers: JSON.stringify(body.headers) }),
        ...(body.enabled !== undefined && { enabled: body.enabled }),
        ...(body.timeoutMs !== undefined && { timeoutMs: body.timeoutMs }),
        ...(body.enabledTools !== undefined && {
          enabledTools: body.enabledTools ? JSON.stringify(body.enabledTools) : null,
        }),
        ...(body.maxTotalTimeoutMs !== undefined && { maxTotalMs: body.maxTotalTimeoutMs }),
        updatedAt: Date.now(),
      })
      .where(eq(mcpServers.id, id))
      .returning();
    await tellRunningTurns(c.env, c.get("user").id);
    return c.json(toMcpServer(row!));
  })
  .delete("/:id", async (c) => {
    const id = parseParam(c, "id", IdParam);
    await getOwned(c.get("db"), c.get("user").id, id);
    // Removing a server forgets (and revokes) this user's sign-in to it first.
    await forgetSignIn(c, id);
    await c.get("db").delete(mcpServers).where(eq(mcpServers.id, id));
    await tellRunningTurns(c.env, c.get("user").id);
    return c.body(null, 204);
  });
