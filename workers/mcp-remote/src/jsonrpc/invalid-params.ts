// Requests whose params break the protocol's schema are answered -32602 with a sentence naming
// the field and what it should be (the SDK would answer -32603 with a raw schema dump).
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

/** Answers invalid requests at the transport, before the server's own handlers see them. */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = ((message, extra) => {
    if (isJSONRPCRequest(message)) {
      const problem = paramsProblem(message);
      if (problem) {
        void transport
          .send({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: ErrorCode.InvalidParams, message: problem },
          })
          .catch(() => undefined);
        return;
      }
    }
    deliver?.(message, extra);
  }) as Transport["onmessage"];
}
