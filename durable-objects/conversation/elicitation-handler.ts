// Hooks a turn's MCP client up to the user: a server's `elicitation/create` arrives on the
// connection, not on the call, so each connection keeps the calls running on it and the question
// goes to the call that has run longest (with one call per server at a time, which is the usual
// case, that is the call that asked). `notifications/elicitation/complete` ends a link question.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Live, RunningCall } from "./mcp-connections";

export function answerQuestionsOn(
  client: Client,
  live: Live,
  onComplete: (serverElicitationId: string) => void,
): void {
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const call = live.runningCalls?.[0];
    if (!call)
      throw new McpError(
        ErrorCode.InvalidRequest,
        "This client asks the user only on behalf of a running tool call.",
      );
    return call.ask(request.params, extra.signal);
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (n) =>
    onComplete(n.params.elicitationId),
  );
}

/** Registers a call as running on `live`; the returned function ends it. */
export function trackCall(live: Live, call: RunningCall): () => void {
  live.runningCalls = [...(live.runningCalls ?? []), call];
  return () => {
    live.runningCalls = live.runningCalls?.filter((c) => c !== call);
  };
}
