// A neutral request → generateContentStream parameters. Thinking models (Gemini 2.5 and later)
// are asked to include their thought summaries, so the reasoning reaches the client; Gemini 3 and
// later need a thought signature on replayed function calls. providerOptions go into the config
// as-is, `thinkingConfig` merged over the default.
import type { GenerateContentParameters, ThinkingConfig } from "@google/genai";
import type { ModelRequest } from "../types";
import { toGeminiContents } from "./convert-messages";
import { prepareGeminiTools } from "./prepare-tools";

const version = (model: string) =>
  Number(/^(?:models\/)?gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1] ?? NaN);

/** Models that think and can show it: Gemini 2.5 and later. */
export const thinks = (model: string) => version(model) >= 2.5;
/** Models that refuse a replayed function call without its thought signature: Gemini 3 and later. */
export const needsSignatures = (model: string) => version(model) >= 3;

export function toGeminiRequest(request: ModelRequest): GenerateContentParameters {
  const { thinkingConfig, ...options } = request.providerOptions ?? {};
  const thinking: ThinkingConfig = {
    ...(thinks(request.model) && { includeThoughts: true }),
    ...(thinkingConfig as ThinkingConfig | undefined),
  };
  return {
    model: request.model,
    contents: toGeminiContents(request.messages, {
      signaturesRequired: needsSignatures(request.model),
    }),
    config: {
      ...options,
      ...(request.system && { systemInstruction: request.system }),
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
      ...(Object.keys(thinking).length > 0 && { thinkingConfig: thinking }),
      ...prepareGeminiTools(request.tools, request.toolChoice),
      ...(request.signal && { abortSignal: request.signal }),
    },
  };
}
