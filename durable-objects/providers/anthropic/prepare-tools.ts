// Tool definitions and tool choice for the Messages API.
import type Anthropic from "@anthropic-ai/sdk";
import { toolInputSchema } from "../json-schema";
import type { ToolChoice, ToolDefinition } from "../types";

export interface AnthropicTools {
  tools?: Anthropic.Tool[];
  tool_choice?: Anthropic.ToolChoice;
}

export function prepareAnthropicTools(
  tools: readonly ToolDefinition[] | undefined,
  choice: ToolChoice | undefined,
): AnthropicTools {
  if (!tools?.length) return {};
  return {
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: toolInputSchema(t.inputSchema).schema as Anthropic.Tool.InputSchema,
    })),
    ...(choice && { tool_choice: toolChoice(choice) }),
  };
}

function toolChoice(choice: ToolChoice): Anthropic.ToolChoice {
  if (choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}

/** Anthropic refuses extended thinking together with a tool choice that forces a call. */
export const forcesToolUse = (c: Anthropic.ToolChoice | undefined) =>
  c?.type === "any" || c?.type === "tool";
