// logging/setLevel on a stateless server: the level is stored under the session id we issued at
// initialize, so it applies to every later request of that session, on any isolate.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpEnv } from "../env";
import { sessionIdOf } from "../session";
import { LOG_LEVEL_META_KEY } from "./levels";
import { levelStore } from "./log-filter";

export function registerSetLevel(server: McpServer, env: McpEnv): void {
  // Replaces the SDK's handler, which keeps the level in this request's short-lived server.
  server.server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    const sessionId = sessionIdOf(extra.requestInfo?.headers ?? {});
    if (!sessionId)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `logging/setLevel needs the Mcp-Session-Id header this server sent with its initialize answer: the level is kept per session. Without a session, give the level with each request in _meta["${LOG_LEVEL_META_KEY}"].`,
      );
    await levelStore(env, sessionId).setLevel(request.params.level);
    return {};
  });
}
