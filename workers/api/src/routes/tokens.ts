// The caller's API tokens: list them (never the secret: only its hash is stored) and revoke one.
// Revoking a token also ends every browser session opened with it.
import { Hono } from "hono";
import type { AppEnv } from "../app-types";
import { listTokens, revokeToken } from "../db/access";
import { notFound } from "../http/errors";
import { parseParam } from "../http/validate";
import { IdParam } from "./conversations";

export const tokenRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ items: await listTokens(c.get("db"), c.get("credential")) }))
  .delete("/:id", async (c) => {
    const id = parseParam(c, "id", IdParam);
    if (!(await revokeToken(c.get("db"), c.get("user").id, id))) throw notFound("Token");
    return c.body(null, 204);
  });
