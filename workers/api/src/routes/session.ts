// Browser sign-in: trade an API token for an HttpOnly session cookie backed by a D1 row; sign
// out of this browser, or of every browser at once.
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import type { AppEnv } from "../app-types";
import { requireUser } from "../auth/middleware";
import {
  createSession,
  endAllSessions,
  endSession,
  SESSION_COOKIE,
  sessionIdOf,
} from "../auth/session";
import { ownerOfToken } from "../auth/users";
import { listSessions } from "../db/access";
import { besideRequest } from "../http/beside-request";
import { ApiError } from "../http/errors";
import { parseJsonBody } from "../http/validate";

export const SignIn = z.object({ token: z.string().min(10).max(500) }).strict();

const clearCookie = (c: Context<AppEnv>) => deleteCookie(c, SESSION_COOKIE, { path: "/" });

export const sessionRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const { token } = await parseJsonBody(c, SignIn);
    const owner = await ownerOfToken(c.get("db"), token, besideRequest(c));
    if (!owner)
      throw new ApiError(
        401,
        "unauthorized",
        "That token is not valid (unknown, revoked or expired). Create one with `npm run token:create`.",
      );
    const session = await createSession(c.env, c.req.url, c.get("db"), owner);
    setCookie(c, SESSION_COOKIE, session.cookie, {
      httpOnly: true,
      sameSite: "Strict",
      secure: new URL(c.req.url).protocol === "https:",
      path: "/",
      maxAge: Math.floor((session.expiresAt - Date.now()) / 1000),
    });
    return c.json({ user: owner.user });
  })
  .get("/", requireUser, (c) => c.json({ user: c.get("user") }))
  // Signing out ends the session on the server, not only in this browser.
  .delete("/", async (c) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    const sid = cookie ? await sessionIdOf(c.env, c.req.url, cookie).catch(() => null) : null;
    if (sid) await endSession(c.get("db"), sid);
    clearCookie(c);
    return c.body(null, 204);
  });

/** Every browser session of the caller; requireUser runs before these. */
export const allSessionsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ items: await listSessions(c.get("db"), c.get("credential")) }))
  // "Sign out everywhere": API tokens keep working; every browser must sign in again.
  .delete("/", async (c) => {
    await endAllSessions(c.get("db"), c.get("user").id);
    clearCookie(c);
    return c.body(null, 204);
  });
