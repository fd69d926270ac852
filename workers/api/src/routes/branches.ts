// REST for branches: make one (branch, edit, regenerate) and list the versions of each message.
import { Hono } from "hono";
import { BranchRequest } from "../../../../durable-objects/protocol/branches";
import { createBranch } from "../../../../durable-objects/conversation/branching/create-branch";
import type { AppEnv } from "../app-types";
import { alternativesOf } from "../branches/alternatives";
import { conversationStub } from "../conversation-lifecycle";
import { branchTree } from "../db/branch-tree";
import { conversationFor } from "../db/conversation-access";
import { getOwnedConversation, toConversation } from "../db/conversations";
import { parseJsonBody, parseParam } from "../http/validate";
import { IdParam } from "./conversations";

export const branchRoutes = new Hono<AppEnv>()
  .post("/:id/branch", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const request = await parseJsonBody(c, BranchRequest);
    const userId = c.get("user").id;
    // A branch is a new conversation of the owner's: a member is told so (403), a stranger 404.
    await conversationFor(c.get("db"), userId, id, "manage");
    const branch = await createBranch({
      env: c.env,
      userId,
      originId: id,
      request,
      readSource: async (point) => (await conversationStub(c.env, id)).branchSource(point),
    });
    return c.json(toConversation(await getOwnedConversation(c.get("db"), userId, branch.id)), 201);
  })
  .get("/:id/alternatives", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const userId = c.get("user").id;
    const { role } = await conversationFor(c.get("db"), userId, id, "read");
    // The other versions are the owner's branches, which are not shared: a member has none to open.
    if (role !== "owner") return c.json({ items: [] });
    return c.json({ items: alternativesOf(id, await branchTree(c.env.DB, userId, id)) });
  });
