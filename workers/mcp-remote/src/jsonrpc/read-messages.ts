// Reads a POST body as JSON-RPC before the SDK sees it, so each fault gets the code JSON-RPC
// gives it: -32700 for a body that is not JSON, -32600 for JSON that is not a valid message.
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  readRequestBody,
} from "@modelcontextprotocol/sdk/server/requestBody.js";

export type ReadResult =
  { ok: true; body: unknown; messages: JSONRPCMessage[] } | { ok: false; response: Response };

const failure = (status: number, code: number, message: string, id: RequestId | null = null) =>
  ({
    ok: false,
    response: Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status }),
  }) as const;

const isId = (v: unknown): v is RequestId =>
  typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

const MEMBERS = new Set(["jsonrpc", "id", "method", "params", "result", "error"]);

/** Says, for a person, why `value` is not a JSON-RPC 2.0 message. */
function whatIsWrong(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "a message must be a JSON object";
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0")
    return `"jsonrpc" must be "2.0" (${m.jsonrpc === undefined ? "it is missing" : `got ${JSON.stringify(m.jsonrpc)}`})`;
  if ("id" in m && !isId(m.id)) return `"id" must be a string or an integer`;
  if (!("method" in m) && !("result" in m) && !("error" in m))
    return `a request or notification needs a "method" (a string)`;
  if ("method" in m && typeof m.method !== "string") return `"method" must be a string`;
  if (
    "params" in m &&
    (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))
  )
    return `"params" must be an object`;
  const unknown = Object.keys(m).filter((k) => !MEMBERS.has(k));
  if (unknown.length) return `unexpected member ${unknown.map((k) => `"${k}"`).join(", ")}`;
  return "it is neither a request, a notification nor a response";
}

export async function readMessages(request: Request): Promise<ReadResult> {
  const body = await readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
  if (body.tooLarge)
    return failure(
      413,
      -32600,
      `Invalid Request: the body is larger than ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes.`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return failure(400, -32700, "Parse error: the body is not valid JSON.");
  }
  const items: unknown[] = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
  if (items.length === 0) return failure(400, -32600, "Invalid Request: the batch is empty.");
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    const ok = JSONRPCMessageSchema.safeParse(item);
    if (!ok.success) {
      const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : null;
      return failure(400, -32600, `Invalid Request: ${whatIsWrong(item)}.`, isId(id) ? id : null);
    }
    messages.push(ok.data);
  }
  return { ok: true, body: parsed, messages };
}
