// Answers to tool-call approvals over REST (for SSE clients and scripts; the web client may also
// answer over its WebSocket). The conversation's Durable Object stores the decision and resumes
// the parked turn, even if it was asleep.
import { Hono } from "hono";
import { z } from "zod";
import type { DecideResult } from "../../../../durable-objects/conversation/approvals";
import { ApprovalAnswer } from "../../../../durable-objects/protocol/wire";
import type { AppEnv } from "../app-types";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor } from "../db/conversation-access";
import { ApiError } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { IdParam } from "./conversations";

const ApprovalIdParam = z.string().min(1).max(100);

export const approvalRoutes = new Hono<AppEnv>().post("/:id/approvals/:approvalId", async (c) => {
  const id = parseParam(c, "id", IdParam);
  const approvalId = parseParam(c, "approvalId", ApprovalIdParam);
  const answer = await parseJsonBody(c, ApprovalAnswer);
  const user = c.get("user");
  const { role } = await conversationFor(c.get("db"), user.id, id, "write");
  const stub = await conversationStub(c.env, id);
  // RPC results arrive wrapped (Disposable), which hides the union's discriminant from TypeScript.
  const result = (await stub.decideApproval(approvalId, answer, {
    via: "rest",
    userId: user.id,
    role,
  })) as unknown as DecideResult;
  if (!result.ok) {
    throw result.code === "not_found"
      ? new ApiError(404, "not_found", result.message)
      : new ApiError(409, "conflict", result.message);
  }
  const a = result.approval;
  return c.json({
    approval: {
      id: a.id,
      callId: a.callId,
      server: a.server,
      tool: a.tool,
      decision: answer.decision,
      note: a.note,
      decidedAt: a.decidedAt,
      // Only the owner's "always allow" becomes a policy.
      remembered: answer.remember === true && answer.decision === "approve" && role === "owner",
    },
  });
});
