// A neutral request → generateContentStream parameters. Thinking models (Gemini 2.5 and later)
// are asked to include their thought summaries, so the reasoning reaches the client; Gemini 3 and
// later need a thought signature on replayed function calls; a reasoning effort becomes a thinking
// level or budget. providerOptions go into the config as-is, `thinkingConfig` merged over ours.
import type { GenerateContentParameters, ThinkingConfig } from "@google/genai";
import { withReasoningRoom } from "../reasoning-effort";
import type { ModelRequest } from "../types";
import { toGeminiContents } from "./convert-messages";
import { needsSignatures, thinkingFor, thinks } from "./model-family";
import { prepareGeminiTools } from "./prepare-tools";

export function toGeminiRequest(request: ModelRequest): GenerateContentParameters {
  const { thinkingConfig, ...options } = request.providerOptions ?? {};
  const effort = request.reasoningEffort;
  const thinking: ThinkingConfig = {
    ...(thinks(request.model) && { includeThoughts: true }),
    // The level as the SDK's ThinkingLevel enum spells it (model-family.ts imports no SDK).
    ...((effort && thinkingFor(request.model, effort)) as ThinkingConfig),
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
      // Thoughts count within maxOutputTokens: a thinking model gets room for them.
      ...(request.maxTokens !== undefined && {
        maxOutputTokens: withReasoningRoom(request.maxTokens, thinks(request.model), effort),
      }),
      ...(Object.keys(thinking).length > 0 && { thinkingConfig: thinking }),
      ...prepareGeminiTools(request.tools, request.toolChoice),
      ...(request.signal && { abortSignal: request.signal }),
    },
  };
}
