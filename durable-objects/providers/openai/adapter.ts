// OpenAI, or any OpenAI-compatible endpoint through its base URL, with the `openai` SDK. OpenAI
// itself is asked through the Responses API, the one its newer models take tools on; other
// servers through chat completions, which they all speak. OPENAI_API chooses otherwise. A model
// that refuses images (a text model behind a compatible server, given a tool's image) is asked
// again with them named in text.
import OpenAI from "openai";
import { missingCredentials, providerError } from "../errors";
import { imagesIfSeen } from "../without-images";
import type { ModelProvider, ProviderConfig } from "../types";
import {
  isOfficialOpenAI,
  isReasoningSummary,
  OPENAI_APIS,
  openaiApiOf,
  REASONING_SUMMARIES,
} from "./api-choice";
import { streamChatCompletions } from "./chat-completions-stream";
import { splitThinkTags } from "../think-tags";
import { streamResponses } from "./responses-stream";

export function createOpenAIProvider(config: ProviderConfig): ModelProvider {
  const official = isOfficialOpenAI(config);
  const api = openaiApiOf(config);
  const summary = config.openaiReasoningSummary;
  const client = config.apiKey
    ? new OpenAI({
        apiKey: config.apiKey,
        ...(config.baseURL && { baseURL: config.baseURL }),
        ...(config.headers && { defaultHeaders: config.headers }),
        ...(config.fetch && { fetch: config.fetch }),
        maxRetries: 0, // retry.ts decides
      })
    : null;
  return imagesIfSeen(
    {
      id: "openai",
      async *stream(request) {
        if (!client) yield { type: "error", error: missingCredentials("OpenAI", "OPENAI_API_KEY") };
        else if (summary !== undefined && !isReasoningSummary(summary))
          yield {
            type: "error",
            error: providerError(
              "not_configured",
              `OPENAI_REASONING_SUMMARY is "${summary}": set it to ${REASONING_SUMMARIES.join(", ")}, or leave it unset (no summary of OpenAI's reasoning is asked for).`,
            ),
          };
        else if (api === "responses") yield* streamResponses(client, official, request, summary);
        else if (api === "chat-completions")
          // Compatible servers may leave a local model's <think> reasoning in its text.
          yield* splitThinkTags(streamChatCompletions(client, official, request));
        else
          yield {
            type: "error",
            error: providerError(
              "not_configured",
              `OPENAI_API is "${api}": set it to ${OPENAI_APIS.join(" or ")}, or leave it unset (OpenAI's own API gets responses, other base URLs chat-completions).`,
            ),
          };
      },
    },
    IMAGES_REFUSED,
  );
}

// How OpenAI and compatible servers (vLLM, LM Studio, Ollama's /v1) refuse images to a model
// that cannot see.
const IMAGES_REFUSED =
  /not a multimodal|(does not|doesn't|cannot) (support|accept|take) (image|vision)|image input|image_url is only supported/i;
