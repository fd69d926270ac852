// Resolves the caller from a bearer token or the session cookie; everything under /api needs one.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../app-types";
import { besideRequest } from "../http/beside-request";
import { ApiError } from "../http/errors";
import { RATE_LIMITS } from "../../../../shared/rate-limit/limits";
import { byAddress, enforceRateLimit } from "../rate-limit/middleware";
import { isAllowedOrigin } from "./origin";
import { type Credential, readSession, SESSION_COOKIE } from "./session";
import { ownerOfToken } from "./users";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const bearerOf = (c: Context<AppEnv>) =>
  /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];

/** The caller's credential from `Authorization: Bearer` or the session cookie, or null. */
export async function credentialOf(c: Context<AppEnv>): Promise<Credential | "bad_bearer" | null> {
  const db = c.get("db");
  if (c.req.header("authorization") !== undefined) {
    const token = bearerOf(c);
    const owner = token ? await ownerOfToken(db, token, besideRequest(c)) : null;
    return owner ? { user: owner.user, tokenId: owner.tokenId } : "bad_bearer";
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? readSession(c.env, c.req.url, db, cookie) : null;
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const credential = await credentialOf(c);
  if (credential === "bad_bearer") {
    // Guessing tokens gets nowhere, but each guess costs a lookup: past the limit, a 429.
    await enforceRateLimit(c, RATE_LIMITS.badBearer, byAddress);
    throw new ApiError(
      401,
      "unauthorized",
      bearerOf(c)
        ? "The bearer token is not valid (unknown, revoked or expired). Create one with `npm run token:create`."
        : "The Authorization header must read `Bearer <token>`, with an API token from `npm run token:create`.",
    );
  }
  if (!credential) {
    throw new ApiError(
      401,
      "unauthorized",
      "Sign in first: send `Authorization: Bearer <token>`, or POST the token to /api/session.",
    );
  }
  // Cookies ride along on cross-site requests; a state change must come from our own pages.
  if (credential.sessionId && !SAFE_METHODS.has(c.req.method)) {
    const origin = c.req.header("origin");
    if (!origin || !isAllowedOrigin(c.env, c.req.url, origin)) {
      throw new ApiError(
        403,
        "forbidden_origin",
        "This request must come from the app's own origin.",
      );
    }
  }
  c.set("user", credential.user);
  c.set("credential", credential);
  return next();
};
