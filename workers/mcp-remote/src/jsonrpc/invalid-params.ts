// Requests whose params break the protocol's schema are answered -32602 with a sentence naming
// the field and what it should be (the SDK would answer -32603 with a raw schema dump); an
// unknown tool -32602; a cursor
// we never issued -32602, and a resource URI we do not serve -32002, as MCP asks.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isOurResource, RESOURCE_NOT_FOUND } from "../resources/research-resources";

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
}
interface RequestSchema {
  shape: { method: { value: string } };
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } };
}

const SCHEMAS: RequestSchema[] = [
  InitializeRequestSchema,
  PingRequestSchema,
  ListToolsRequestSchema,
  CallToolRequestSchema,
  SetLevelRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  CompleteRequestSchema,
] as unknown as RequestSchema[];
const BY_METHOD = new Map(SCHEMAS.map((s) => [s.shape.method.value, s]));

function sentence(issue: Issue): string {
  const field = issue.path
    .slice(issue.path[0] === "params" ? 1 : 0)
    .map(String)
    .join(".");
  const name = field ? `"${field}"` : "params";
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message))
    return `${name} is missing (${issue.message.replace(/^Invalid input: |, received undefined$/g, "")})`;
  return `${name}: ${issue.message.replace(/^Invalid (input|option): /, "")}`;
}

/** A readable reason why `request`'s params are invalid, or null when they are fine. */
export function paramsProblem(request: JSONRPCRequest): string | null {
  const schema = BY_METHOD.get(request.method);
  if (!schema) return null;
  const parsed = schema.safeParse({ method: request.method, params: request.params });
  if (parsed.success) return null;
  return `Invalid params for ${request.method}: ${parsed.error.issues.map(sentence).join("; ")}.`;
}

// Our lists fit on one page, so we never issue a cursor, and any cursor is one we cannot honour.
const PAGED = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list"]);

interface Refusal {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/** Why `request` must be refused before any handler runs, or null. */
export function refusalOf(request: JSONRPCRequest, tools: ReadonlySet<string>): Refusal | null {
  const problem = paramsProblem(request);
  if (problem) return { code: ErrorCode.InvalidParams, message: problem };
  const params = request.params as Record<string, unknown> | undefined;
  // MCP lists an unknown tool among protocol errors; the SDK would answer it as an isError
  // result, which reads as if the tool had run and failed.
  if (
    request.method === "tools/call" &&
    typeof params?.name === "string" &&
    !tools.has(params.name)
  )
    return {
      code: ErrorCode.InvalidParams,
      message: `Unknown tool: ${params.name}. tools/list names the ${tools.size} tools this server has.`,
    };
  // The specification asks for -32602 on an invalid cursor; ignoring it would answer page one.
  if (PAGED.has(request.method) && params?.cursor !== undefined)
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params for ${request.method}: "cursor" names no page; this server lists everything on one page and never issues a nextCursor.`,
    };
  // The SDK answers an unknown URI -32602; MCP gives "resource not found" its own code.
  if (
    request.method === "resources/read" &&
    typeof params?.uri === "string" &&
    !isOurResource(params.uri)
  )
    return {
      code: RESOURCE_NOT_FOUND,
      message: `Resource not found: ${params.uri}. See resources/list and resources/templates/list.`,
      data: { uri: params.uri },
    };
  return null;
}

/** Answers invalid requests at the transport, before the server's own handlers see them. */
export function refuseInvalidParams(transport: Transport, tools: ReadonlySet<string>): void {
  const deliver = transport.onmessage;
  transport.onmessage = ((message, extra) => {
    if (isJSONRPCRequest(message)) {
      const refusal = refusalOf(message, tools);
      if (refusal) {
        void transport
          .send({ jsonrpc: "2.0", id: message.id, error: refusal })
          .catch(() => undefined);
        return;
      }
    }
    deliver?.(message, extra);
  }) as Transport["onmessage"];
}
