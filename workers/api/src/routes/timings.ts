// Where the time of each step of a conversation went (see durable-objects/loop/step-timings.ts).
import { Hono } from "hono";
import { ConversationTimings } from "../../../../durable-objects/protocol/timings";
import type { AppEnv } from "../app-types";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor } from "../db/conversation-access";
import { parseParam } from "../http/validate";
import { IdParam } from "./conversations";

export const timingsRoutes = new Hono<AppEnv>().get("/:id/timings", async (c) => {
  const id = parseParam(c, "id", IdParam);
  await conversationFor(c.get("db"), c.get("user").id, id, "read");
  const stub = await conversationStub(c.env, id);
  const res = await stub.fetch(new Request(new URL("/timings", c.req.url)));
  return c.json(ConversationTimings.parse(await res.json()));
});
