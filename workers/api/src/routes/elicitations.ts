// Answers to the questions MCP servers ask during tool calls, over REST (for SSE clients and
// scripts; the web client may also answer over its WebSocket). The conversation's Durable Object
// checks the answer against the requested form and hands it to the call that waits for it.
import { Hono } from "hono";
import { z } from "zod";
import type { AnswerResult } from "../../../../durable-objects/conversation/elicitations";
import { ElicitationAnswer } from "../../../../durable-objects/protocol/elicitation";
import type { AppEnv } from "../app-types";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor } from "../db/conversation-access";
import { ApiError } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { IdParam } from "./conversations";

const ElicitationIdParam = z.string().min(1).max(100);

export const elicitationRoutes = new Hono<AppEnv>().post(
  "/:id/elicitations/:elicitationId",
  async (c) => {
    const id = parseParam(c, "id", IdParam);
    const elicitationId = parseParam(c, "elicitationId", ElicitationIdParam);
    const answer = await parseJsonBody(c, ElicitationAnswer);
    const user = c.get("user");
    await conversationFor(c.get("db"), user.id, id, "write");
    const stub = await conversationStub(c.env, id);
    // RPC results arrive wrapped (Disposable), which hides the union's discriminant from TypeScript.
    const result = (await stub.answerElicitation(elicitationId, answer, {
      via: "rest",
      userId: user.id,
    })) as unknown as AnswerResult;
    if (!result.ok) {
      switch (result.code) {
        case "not_found":
          throw new ApiError(404, "not_found", result.message);
        case "invalid_content":
          throw new ApiError(400, "validation_failed", result.message);
        default:
          throw new ApiError(409, "conflict", result.message);
      }
    }
    const e = result.elicitation;
    return c.json({
      elicitation: {
        id: e.id,
        callId: e.callId,
        server: e.server,
        tool: e.tool,
        mode: e.mode,
        action: e.status,
      },
    });
  },
);
