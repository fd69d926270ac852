// The conversation's audit log as a JSON Lines download (see durable-objects/conversation/audit-log.ts).
import { contentDisposition } from "../http/content-disposition";
import { Hono } from "hono";
import type { AppEnv } from "../app-types";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor } from "../db/conversation-access";
import { parseParam } from "../http/validate";
import { IdParam } from "./conversations";

export const auditRoutes = new Hono<AppEnv>().get("/:id/audit", async (c) => {
  const id = parseParam(c, "id", IdParam);
  await conversationFor(c.get("db"), c.get("user").id, id, "manage");
  const stub = await conversationStub(c.env, id);
  const log = await stub.fetch(new Request(new URL("/audit", c.req.url)));
  return new Response(log.body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": contentDisposition("attachment", `audit-${id}.jsonl`),
    },
  });
});
