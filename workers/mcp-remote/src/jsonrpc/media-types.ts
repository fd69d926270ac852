// A POST must say it sends JSON and that it reads both answers streamable HTTP may give. Checked
// before the body is read, as the SDK's transport would (406, then 415), so a form or plain-text
// body is refused for its Content-Type rather than answered as a JSON-RPC parse error (-32700).
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";

const refusal = (status: number, message: string) =>
  Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, { status });

const quoted = (header: string | null) =>
  header ? `"${header.length > 80 ? `${header.slice(0, 80)}…` : header}"` : "none";

/** The answer to a POST whose Accept or Content-Type is wrong, or null when both are right. */
export function mediaTypeRefusal(request: Request): Response | null {
  const accept = request.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream"))
    return refusal(
      406,
      `Not Acceptable: send "Accept: application/json, text/event-stream"; a streamable HTTP client must take both kinds of answer (this request's Accept: ${quoted(accept)}).`,
    );
  const type = request.headers.get("content-type");
  if (!isJsonContentType(type))
    return refusal(
      415,
      `Unsupported Media Type: send the JSON-RPC message as JSON, with "Content-Type: application/json" (this request's Content-Type: ${quoted(type)}).`,
    );
  return null;
}
