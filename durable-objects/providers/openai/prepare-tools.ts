// Tool definitions and tool choice, in the shapes of OpenAI's two APIs: chat completions nest a
// function under `function`, the Responses API puts its fields on the tool itself.
import type OpenAI from "openai";
import { toolInputSchema } from "../json-schema";
import type { ToolChoice, ToolDefinition } from "../types";

type Tool = OpenAI.Chat.Completions.ChatCompletionTool;
type Choice = OpenAI.Chat.Completions.ChatCompletionToolChoiceOption;
type ResponsesTool = OpenAI.Responses.FunctionTool;
type ResponsesChoice = OpenAI.Responses.ResponseCreateParams["tool_choice"];

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

export function prepareResponsesTools(
  tools: readonly ToolDefinition[] | undefined,
  choice: ToolChoice | undefined,
): { tools?: ResponsesTool[]; tool_choice?: ResponsesChoice } {
  if (!tools?.length) return {};
  return {
    tools: tools.map((t) => ({
      type: "function",
      name: t.name,
      description: t.description,
      parameters: toolInputSchema(t.inputSchema).schema,
      // Strict mode needs every property required and no extra ones: MCP servers' schemas are
      // rarely written that way, and the loop validates and repairs arguments itself.
      strict: false,
    })),
    ...(choice && {
      tool_choice: typeof choice === "string" ? choice : { type: "function", name: choice.name },
    }),
  };
}
