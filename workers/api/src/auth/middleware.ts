// Resolves the caller from a bearer token or the session cookie; everything under /api needs one.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../app-types";
import { ApiError } from "../http/errors";
import { isAllowedOrigin } from "./origin";
import { readSession, SESSION_COOKIE } from "./session";
import { userById, userForToken } from "./users";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const db = c.get("db");
  const header = c.req.header("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const user = match?.[1] ? await userForToken(db, match[1]) : null;
    if (!user)
      throw new ApiError(
        401,
        "unauthorized",
        "The bearer token is not valid. Create one with `npm run token:create`.",
      );
    c.set("user", user);
    return next();
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  const uid = cookie ? await readSession(c.env, cookie) : null;
  const user = uid ? await userById(db, uid) : null;
  if (!user) {
    throw new ApiError(
      401,
      "unauthorized",
      "Sign in first: send `Authorization: Bearer <token>`, or POST the token to /api/session.",
    );
  }
  // Cookies ride along on cross-site requests; a state change must come from our own pages.
  if (!SAFE_METHODS.has(c.req.method)) {
    const origin = c.req.header("origin");
    if (!origin || !isAllowedOrigin(c.env, c.req.url, origin)) {
      throw new ApiError(
        403,
        "forbidden_origin",
        "This request must come from the app's own origin.",
      );
    }
  }
  c.set("user", user);
  return next();
};
