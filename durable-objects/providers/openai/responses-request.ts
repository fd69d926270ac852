// A neutral request → a streamed Responses API body. Stateless (`store: false`): the conversation
// object keeps the history and sends it whole, as it does to every provider, so OpenAI is not
// asked to keep a copy of it. A reasoning model is asked for its reasoning encrypted, to be sent
// back with its calls on the turn's next step (see EncryptedReasoning).
import type OpenAI from "openai";
import { withReasoningRoom } from "../reasoning-effort";
import type { ModelRequest } from "../types";
import { prepareResponsesTools } from "./prepare-tools";
import { toResponsesInput } from "./responses-input";
import type { ReasoningSummary } from "./api-choice";
import { reasons, takesTemperature } from "./sampling";

export interface ResponsesOptions {
  /**
   * False asks for no encrypted reasoning and leaves out what the history holds: the plain
   * request, for when OpenAI refuses them.
   */
  sealed?: boolean;
  /** Asks a reasoning model for a summary of its reasoning (OPENAI_REASONING_SUMMARY). */
  summary?: ReasoningSummary;
}

export function toResponsesRequest(
  request: ModelRequest,
  official: boolean,
  { sealed = true, summary }: ResponsesOptions = {},
): OpenAI.Responses.ResponseCreateParamsStreaming {
  const reasoning = reasons(request.model, official);
  const asked = request.providerOptions?.reasoning as OpenAI.Reasoning | undefined;
  const effort = reasoning ? request.reasoningEffort : undefined;
  return {
    ...request.providerOptions,
    ...(reasoning &&
      (summary || effort) && {
        reasoning: { ...asked, ...(effort && { effort }), ...(summary && { summary }) },
      }),
    model: request.model,
    ...(request.system && { instructions: request.system }),
    input: toResponsesInput(request.messages, sealed ? request.model : null),
    ...prepareResponsesTools(request.tools, request.toolChoice),
    // Reasoning counts within max_output_tokens: a reasoning model gets room for it.
    ...(request.maxTokens !== undefined && {
      max_output_tokens: withReasoningRoom(request.maxTokens, reasoning, effort),
    }),
    ...(request.temperature !== undefined &&
      takesTemperature(request.model, official) && { temperature: request.temperature }),
    ...(reasoning && sealed && { include: ["reasoning.encrypted_content"] }),
    store: false,
    stream: true,
  };
}
