// REST calls for the prompts and resources of the open conversation's MCP servers.
import {
  McpAttachment,
  type McpAttachRequest,
  type McpCompletionRequest,
  McpCompletionResult,
  McpPromptList,
  type McpPromptRequest,
  McpPromptResult,
  McpResourceList,
} from "../../../durable-objects/protocol/rest";
import { apiRequest } from "../api";
import type { Suggest } from "./ArgumentFields";

export interface CatalogApi {
  prompts(): Promise<McpPromptList>;
  prompt(body: McpPromptRequest): Promise<McpPromptResult>;
  complete(body: McpCompletionRequest): Promise<McpCompletionResult>;
  resources(): Promise<McpResourceList>;
  attach(body: McpAttachRequest): Promise<McpAttachment>;
}

export function catalogApi(conversationId: string): CatalogApi {
  const base = `/api/conversations/${conversationId}/mcp`;
  const post = { method: "POST" } as const;
  return {
    prompts: () => apiRequest(McpPromptList, `${base}/prompts`),
    prompt: (json) => apiRequest(McpPromptResult, `${base}/prompts/get`, { ...post, json }),
    complete: (json) => apiRequest(McpCompletionResult, `${base}/complete`, { ...post, json }),
    resources: () => apiRequest(McpResourceList, `${base}/resources`),
    attach: (json) => apiRequest(McpAttachment, `${base}/resources/attach`, { ...post, json }),
  };
}

/** Suggestions through `completion/complete` for one prompt's arguments or one template's variables. */
export const suggestFor =
  (api: CatalogApi, server: string, ref: McpCompletionRequest["ref"]): Suggest =>
  async (name, value, context) =>
    (await api.complete({ server, ref, argument: { name, value }, context })).values;
