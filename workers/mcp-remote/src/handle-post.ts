// One POST to /mcp: read the JSON-RPC messages, build a fresh server for them (stateless), and
// wire in what a per-request server cannot do alone: session ids, log levels, cancellation.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { applyCancellations, trackRequests, watchBody } from "./cancellation";
import type { McpEnv } from "./env";
import { answerInvalidArguments } from "./jsonrpc/invalid-arguments";
import { refuseInvalidParams } from "./jsonrpc/invalid-params";
import { mediaTypeRefusal } from "./jsonrpc/media-types";
import { plainErrorMessages } from "./jsonrpc/plain-errors";
import { readMessages } from "./jsonrpc/read-messages";
import { filterLogLines, thresholds } from "./logging/log-filter";
import { createServer, inputSchemasOf, toolNamesOf } from "./server";
import { newSessionId, SESSION_HEADER, sessionIdOf } from "./session";

export async function handlePost(request: Request, env: McpEnv): Promise<Response> {
  const misfit = mediaTypeRefusal(request);
  if (misfit) return misfit;
  const read = await readMessages(request);
  if (!read.ok) return read.response;
  const { messages } = read;
  const initializing = messages.some(isInitializeRequest);
  const sessionId = initializing ? undefined : sessionIdOf(request.headers);
  applyCancellations(sessionId, messages);

  const server = createServer(env);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: false,
  });
  await server.connect(transport);
  // The arguments are checked after the params (the outer hook, installed last, runs first).
  answerInvalidArguments(transport, inputSchemasOf(server));
  refuseInvalidParams(transport, toolNamesOf(server));
  plainErrorMessages(transport);
  filterLogLines(transport, thresholds(env, sessionId, messages));

  const stop = () => void server.close().catch(() => undefined);
  const forget = trackRequests(sessionId, messages, stop);
  // A client that hangs up can never read the answer (there is no stream to resume here).
  request.signal.addEventListener("abort", stop, { once: true });

  const response = await transport.handleRequest(request, { parsedBody: read.body });
  const headers = new Headers(response.headers);
  if (initializing && response.ok) headers.set(SESSION_HEADER, newSessionId());
  return watchBody(response, headers, forget, stop);
}
