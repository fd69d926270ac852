// Public routes of MCP sign-in: the OAuth callback and our client metadata document. The
// callback authenticates by `state` alone (the session cookie is SameSite=Strict and does not
// ride along on a redirect from another site): a state is random, stored hashed, bound to the
// user and server that started it, works once, and only for 10 minutes.
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { clientMetadataDocument } from "../../../../durable-objects/mcp/oauth/client-metadata";
import { CallbackQuery } from "../../../../durable-objects/mcp/oauth/callback-query";
import type { AppEnv } from "../app-types";
import { readSession, SESSION_COOKIE } from "../auth/session";
import { validQuery } from "../http/validated";
import { callbackPage } from "./mcp-oauth-callback-page";
import { signInDeps, signInFlow } from "./mcp-server-sign-in";

export const mcpOauthRoutes = new Hono<AppEnv>()
  .get("/callback", validQuery(CallbackQuery), async (c) => {
    const query = c.req.valid("query");
    const cookie = getCookie(c, SESSION_COOKIE);
    const session = cookie ? await readSession(c.env, c.req.url, c.get("db"), cookie) : null;
    const sessionUser = session?.user.id ?? null;
    const { finishSignIn } = await signInFlow();
    const result = await finishSignIn(await signInDeps(c.env, c.req.url), query, sessionUser);
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
