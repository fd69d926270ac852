// Browser sign-in: trade an API token for an HttpOnly session cookie.
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import type { AppEnv } from "../app-types";
import { requireUser } from "../auth/middleware";
import { createSession, SESSION_COOKIE, SESSION_TTL_MS } from "../auth/session";
import { userForToken } from "../auth/users";
import { ApiError } from "../http/errors";
import { parseJsonBody } from "../http/validate";

const SignIn = z.object({ token: z.string().min(10).max(500) }).strict();

export const sessionRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const { token } = await parseJsonBody(c, SignIn);
    const user = await userForToken(c.get("db"), token);
    if (!user)
      throw new ApiError(
        401,
        "unauthorized",
        "That token is not valid. Create one with `npm run token:create`.",
      );
    setCookie(c, SESSION_COOKIE, await createSession(c.env, user.id), {
      httpOnly: true,
      sameSite: "Strict",
      secure: new URL(c.req.url).protocol === "https:",
      path: "/",
      maxAge: SESSION_TTL_MS / 1000,
    });
    return c.json({ user });
  })
  .get("/", requireUser, (c) => c.json({ user: c.get("user") }))
  .delete("/", (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.body(null, 204);
  });
