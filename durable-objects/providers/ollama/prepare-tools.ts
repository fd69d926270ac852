// Tool definitions for /api/chat. Ollama cannot force a call: a named tool choice offers only
// that tool, "none" offers none, "required" offers them all.
import { toolInputSchema } from "../json-schema";
import type { ToolChoice, ToolDefinition } from "../types";

export interface OllamaTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export function prepareOllamaTools(
  tools: readonly ToolDefinition[] | undefined,
  choice: ToolChoice | undefined,
): { tools?: OllamaTool[] } {
  if (!tools?.length || choice === "none") return {};
  const offered = typeof choice === "object" ? tools.filter((t) => t.name === choice.name) : tools;
  if (!offered.length) return {};
  return {
    tools: offered.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        description: t.description,
        parameters: toolInputSchema(t.inputSchema).schema,
      },
    })),
  };
}
