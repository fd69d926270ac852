// Prompts of MCP servers: listed for the composer's `/` picker, and fetched with their arguments
// as the text of the user's next message.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpPromptInfo, McpPromptResult } from "../../../../durable-objects/protocol/rest";
import { ApiError } from "../http/errors";
import { collectPages } from "./pages";

/** A prompt whose text is longer than this is refused rather than sent half. */
export const MAX_PROMPT_CHARS = 100_000;

export async function listPrompts(
  client: Client,
  server: string,
  timeoutMs: number,
): Promise<McpPromptInfo[]> {
  // A server that does not declare prompts has none (asking would only earn an error).
  if (!client.getServerCapabilities()?.prompts) return [];
  const completes = !!client.getServerCapabilities()?.completions;
  const prompts = await collectPages(async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
  return prompts.map((p) => ({
    server,
    name: p.name,
    ...(p.title && { title: p.title }),
    ...(p.description && { description: p.description }),
    arguments: (p.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description && { description: a.description }),
      ...(a.required !== undefined && { required: a.required }),
    })),
    completes,
  }));
}

export async function getPrompt(
  client: Client,
  request: { server: string; name: string; arguments?: Record<string, string> | undefined },
  timeoutMs: number,
): Promise<McpPromptResult> {
  const result = await client.getPrompt(
    { name: request.name, ...(request.arguments && { arguments: request.arguments }) },
    { timeout: timeoutMs },
  );
  const { text, omitted } = promptText(result.messages);
  if (text.length > MAX_PROMPT_CHARS)
    throw new ApiError(
      502,
      "upstream_failed",
      `The prompt '${request.name}' of '${request.server}' is ${text.length} characters long, more than the ${MAX_PROMPT_CHARS} this app takes from a prompt.`,
    );
  return {
    server: request.server,
    name: request.name,
    ...(result.description && { description: result.description }),
    text,
    omitted,
  };
}

/**
 * The user-role text of a prompt's messages, joined: a conversation turn starts with one user
 * message, so assistant messages and what is not text are left out and named, never hidden.
 */
export function promptText(messages: GetPromptResult["messages"]): {
  text: string;
  omitted: string[];
} {
  const parts: string[] = [];
  const omitted: string[] = [];
  for (const message of messages) {
    const content = message.content;
    if (message.role !== "user") {
      omitted.push(
        `an ${message.role} message${content.type === "text" ? "" : ` (${content.type})`}`,
      );
      continue;
    }
    switch (content.type) {
      case "text":
        parts.push(content.text);
        break;
      case "resource":
        if ("text" in content.resource) parts.push(content.resource.text);
        else
          omitted.push(
            `the binary resource ${content.resource.uri}${content.resource.mimeType ? ` (${content.resource.mimeType})` : ""}`,
          );
        break;
      case "resource_link":
        parts.push(`${content.title ?? content.name}: ${content.uri}`);
        break;
      default:
        omitted.push(`an ${content.type} (${content.mimeType})`);
    }
  }
  return { text: parts.join("\n\n"), omitted };
}
