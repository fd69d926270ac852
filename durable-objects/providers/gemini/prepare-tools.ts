// Tool declarations and the function-calling mode for Gemini. A tool without parameters is
// declared without `parameters`: Gemini refuses an object schema with no properties.
import {
  type FunctionDeclaration,
  FunctionCallingConfigMode,
  type Schema,
  type Tool,
  type ToolConfig,
} from "@google/genai";
import type { ToolChoice, ToolDefinition } from "../types";
import { toGeminiSchema } from "./convert-schema";

export function prepareGeminiTools(
  tools: readonly ToolDefinition[] | undefined,
  choice: ToolChoice | undefined,
): { tools?: Tool[]; toolConfig?: ToolConfig } {
  if (!tools?.length) return {};
  const declarations: FunctionDeclaration[] = tools.map((t) => {
    const { schema } = toGeminiSchema(t.inputSchema);
    return {
      name: t.name,
      description: t.description,
      ...(schema.properties !== undefined && { parameters: schema as Schema }),
    };
  });
  return {
    tools: [{ functionDeclarations: declarations }],
    ...(choice && { toolConfig: { functionCallingConfig: callingConfig(choice) } }),
  };
}

function callingConfig(choice: ToolChoice) {
  if (choice === "none") return { mode: FunctionCallingConfigMode.NONE };
  if (choice === "required") return { mode: FunctionCallingConfigMode.ANY };
  if (choice === "auto") return { mode: FunctionCallingConfigMode.AUTO };
  return { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] };
}
