// A neutral request → a streamed Responses API body. Stateless (`store: false`): the conversation
// object keeps the history and sends it whole, as it does to every provider, so OpenAI is not
// asked to keep a copy of it.
import type OpenAI from "openai";
import type { ModelRequest } from "../types";
import { prepareResponsesTools } from "./prepare-tools";
import { toResponsesInput } from "./responses-input";
import { takesTemperature } from "./sampling";

export function toResponsesRequest(
  request: ModelRequest,
  official: boolean,
): OpenAI.Responses.ResponseCreateParamsStreaming {
  return {
    ...request.providerOptions,
    model: request.model,
    ...(request.system && { instructions: request.system }),
    input: toResponsesInput(request.messages),
    ...prepareResponsesTools(request.tools, request.toolChoice),
    ...(request.maxTokens !== undefined && { max_output_tokens: request.maxTokens }),
    ...(request.temperature !== undefined &&
      takesTemperature(request.model, official) && { temperature: request.temperature }),
    store: false,
    stream: true,
  };
}
