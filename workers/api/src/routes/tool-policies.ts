// The user's own tool policies, for all their conversations (a conversation's settings override
// them): GET the whole set, PUT one server's or one tool's policy (null removes it).
import { Hono } from "hono";
import { z } from "zod";
import {
  loadUserToolPolicies,
  setUserToolPolicy,
} from "../../../../durable-objects/conversation/user-tool-policies";
import { ToolPolicy } from "../../../../durable-objects/protocol/tool-policy";
import type { AppEnv } from "../app-types";
import { parseJsonBody } from "../http/validate";
import { tellRunningTurns } from "./mcp-settings-notice";

export const PolicyChange = z
  .object({
    server: z.string().min(1).max(100),
    // Omitted: the policy of every tool of the server that has none of its own.
    tool: z.string().min(1).max(200).optional(),
    policy: ToolPolicy.nullable(),
  })
  .strict();

export const toolPolicyRoutes = new Hono<AppEnv>()
  .get("/", async (c) =>
    c.json({ policies: await loadUserToolPolicies(c.env.DB, c.get("user").id) }),
  )
  .put("/", async (c) => {
    const change = await parseJsonBody(c, PolicyChange);
    const userId = c.get("user").id;
    await setUserToolPolicy(c.env.DB, userId, change.server, change.tool ?? "", change.policy);
    await tellRunningTurns(c.env, userId);
    return c.json({ policies: await loadUserToolPolicies(c.env.DB, userId) });
  });
