// workers/mcp-remote: our MCP server over streamable HTTP at /mcp (stateless: any instance can
// answer any request, so nothing is lost when Workers move or restart).
import type { McpEnv } from "./env";
import { preflight, withCors } from "./cors";
import { checkHostAndOrigin, checkRequest } from "./guard";
import { handlePost } from "./handle-post";

export { SessionLogLevel } from "./logging/session-log-level";

export default {
  async fetch(request: Request, env: McpEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return Response.json({ ok: true, service: "mcp-remote" });
    if (url.pathname !== "/mcp")
      return Response.json(
        { error: { code: "not_found", message: "The MCP endpoint is /mcp." } },
        { status: 404 },
      );
    const origin = request.headers.get("origin");
    // A preflight carries no token; it passes on Host and Origin alone, like the POST after it.
    if (request.method === "OPTIONS" && origin) {
      const misplaced = checkHostAndOrigin(request, env);
      return misplaced ?? preflight(origin);
    }
    const refused = checkRequest(request, env);
    // A refusal for a foreign origin stays unreadable to it; an accepted origin may read its 401.
    if (refused) return refused.status === 403 ? refused : withCors(refused, origin);
    return withCors(await answer(request, env), origin);
  },
} satisfies ExportedHandler<McpEnv>;

async function answer(request: Request, env: McpEnv): Promise<Response> {
  // Stateless: no standing stream to open (it would only hold one of the caller's few
  // connections), and a session holds only a log level that expires by itself, so a client
  // may not end it (DELETE). Clients treat 405 here as "not offered".
  if (request.method !== "POST")
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "This server is stateless: only POST is served." },
        id: null,
      },
      { status: 405, headers: { allow: "POST" } },
    );
  return handlePost(request, env);
}
