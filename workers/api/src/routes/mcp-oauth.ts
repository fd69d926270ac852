// Public routes of MCP sign-in: the OAuth callback and our client metadata document. The
// callback authenticates by `state` alone (the session cookie is SameSite=Strict and does not
// ride along on a redirect from another site): a state is random, stored hashed, bound to the
// user and server that started it, works once, and only for 10 minutes.
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { clientMetadataDocument } from "../../../../durable-objects/mcp/oauth/client-metadata";
import {
  CallbackQuery,
  readCallbackQuery,
} from "../../../../durable-objects/mcp/oauth/callback-query";
import type { FinishResult } from "../../../../durable-objects/mcp/oauth/sign-in-flow";
import type { AppEnv } from "../app-types";
import { readSession, SESSION_COOKIE } from "../auth/session";
import { documentedQuery } from "../http/validated";
import { callbackPage } from "./mcp-oauth-callback-page";
import { signInDeps, signInFlow } from "./mcp-server-sign-in";

const UNREADABLE: FinishResult = {
  ok: false,
  display: "popup",
  message:
    "The authorization server sent back a sign-in answer this app cannot read. Start again with Connect in Settings → MCP servers.",
};

export const mcpOauthRoutes = new Hono<AppEnv>()
  // Parsed here, not refused by a validator: whatever comes back, the popup shows a page.
  .get("/callback", documentedQuery(CallbackQuery), async (c) => {
    const query = readCallbackQuery(c.req.query());
    const cookie = getCookie(c, SESSION_COOKIE);
    const session = cookie ? await readSession(c.env, c.req.url, c.get("db"), cookie) : null;
    const sessionUser = session?.user.id ?? null;
    const { finishSignIn } = await signInFlow();
    const result = query
      ? await finishSignIn(await signInDeps(c.env, c.req.url), query, sessionUser)
      : UNREADABLE;
    const { html, nonce } = callbackPage(result);
    return c.html(html, result.ok ? 200 : 400, {
      "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'`,
      // The popup must still reach its opener (the app) after visiting the authorization page.
      "cross-origin-opener-policy": "unsafe-none",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
  })
  .get("/client-metadata.json", (c) =>
    c.json(clientMetadataDocument(new URL(c.req.url).origin), 200, {
      "cache-control": "public, max-age=3600",
    }),
  );
