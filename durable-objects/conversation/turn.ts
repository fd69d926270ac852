// One turn of the conversation: ask the model, stream what it says, return the final content.
// This is the plain reply (no tools); the thinking loop replaces it with steps and tools.
import { createProvider, providerConfigFromEnv } from "../providers/registry";
import { streamWithRetries } from "../providers/retry";
import type { ProviderId } from "../providers/types";
import type { MessagePart, MessageStatus } from "../protocol/messages";
import type { ConversationSettings } from "../protocol/rest";
import type { NewServerEvent } from "../protocol/wire";
import type { Env } from "../../workers/api/src/env";
import type { ChatMessage } from "../protocol/messages";
import { toNeutralHistory } from "./history";

export interface ConversationInfo {
  id: string;
  userId: string;
  provider: ProviderId;
  model: string;
  mode: "normal" | "graph" | "tools";
  settings: ConversationSettings;
}

export interface TurnInput {
  env: Env;
  conversation: ConversationInfo;
  assistantMessageId: string;
  /** Every message before this turn's answer, the new user message last. */
  history: ChatMessage[];
  signal: AbortSignal;
  emit: (event: NewServerEvent) => void;
  recordUsage: (u: { inputTokens: number; outputTokens: number; cachedTokens: number }) => void;
}

export interface TurnOutcome {
  content: MessagePart[];
  status: MessageStatus;
  error?: { code: string; message: string };
}

export const NOT_CONFIGURED_MESSAGE = (provider: string) =>
  `The ${provider} provider is not configured. Set its key in .dev.vars (locally) or with ` +
  "`wrangler secret put` (deployed), or pick another provider in the conversation settings.";

const SYSTEM_PROMPT =
  "You are a helpful assistant. Answer clearly; use Markdown where it helps (tables, code blocks, lists).";

export async function runPlainTurn(input: TurnInput): Promise<TurnOutcome> {
  const { conversation, emit, assistantMessageId: messageId } = input;
  const config = providerConfigFromEnv(input.env, conversation.provider);
  if (!config) {
    return {
      content: [],
      status: "failed",
      error: { code: "not_configured", message: NOT_CONFIGURED_MESSAGE(conversation.provider) },
    };
  }
  const provider = createProvider(conversation.provider, config);
  let text = "";
  let reasoning = "";
  const content = (): MessagePart[] => [
    ...(reasoning ? [{ type: "reasoning" as const, text: reasoning }] : []),
    ...(text ? [{ type: "text" as const, text }] : []),
  ];
  for await (const event of streamWithRetries(provider, {
    model: conversation.model,
    system: SYSTEM_PROMPT,
    messages: toNeutralHistory(input.history),
    ...(conversation.settings.temperature !== undefined && { temperature: conversation.settings.temperature }),
    maxTokens: conversation.settings.maxTokens ?? 4096,
    signal: input.signal,
  })) {
    switch (event.type) {
      case "text_delta":
        text += event.text;
        emit({ type: "text_delta", messageId, delta: event.text });
        break;
      case "reasoning_delta":
        reasoning += event.text;
        emit({ type: "reasoning_delta", messageId, delta: event.text });
        break;
      case "usage":
        input.recordUsage({
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          cachedTokens: event.cachedTokens ?? 0,
        });
        break;
      case "error":
        if (event.error.code === "aborted") return { content: content(), status: "cancelled" };
        return { content: content(), status: "failed", error: { code: event.error.code, message: event.error.message } };
      default:
        break;
    }
  }
  return { content: content(), status: "complete" };
}
