// Tool definitions and tool choice for chat completions.
import type OpenAI from "openai";
import { toolInputSchema } from "../json-schema";
import type { ToolChoice, ToolDefinition } from "../types";

type Tool = OpenAI.Chat.Completions.ChatCompletionTool;
type Choice = OpenAI.Chat.Completions.ChatCompletionToolChoiceOption;

export function prepareOpenAITools(
  tools: readonly ToolDefinition[] | undefined,
  choice: ToolChoice | undefined,
): { tools?: Tool[]; tool_choice?: Choice } {
  if (!tools?.length) return {};
  return {
    tools: tools.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        description: t.description,
        parameters: toolInputSchema(t.inputSchema).schema,
      },
    })),
    ...(choice && {
      tool_choice:
        typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } },
    }),
  };
}
