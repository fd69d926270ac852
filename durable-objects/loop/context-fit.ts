// Keeps every model call of a turn within the model's window: the history is assembled within the
// budget once the system prompt and tools are known; the characters-per-token ratio is corrected
// from the usage the provider reports; a request refused for its length anyway is shrunk and
// sent once more, and the user is told.
import type { NewServerEvent } from "../protocol/wire";
import type {
  ModelProvider,
  ModelRequest,
  NeutralMessage,
  StreamEvent,
  ToolDefinition,
} from "../providers/types";
import {
  correctedCharsPerToken,
  historyBudget,
  type ModelWindow,
  TokenEstimator,
} from "./context-budget";
import { assembleHistory, shrinkForRetry } from "./history-assembly";

export interface ContextFitOptions {
  window: ModelWindow;
  model: string;
  maxTokens?: number | undefined;
  /** The ratio learned from earlier calls of this conversation, if any. */
  charsPerToken?: number | undefined;
  /** Stores a newly learned ratio for the next turn. */
  learnedCharsPerToken?: (ratio: number) => void;
  emit: (event: NewServerEvent) => void;
  /** The stream with the retry policy, wrapped here. */
  stream: (provider: ModelProvider, request: ModelRequest) => AsyncIterable<StreamEvent>;
}

export interface ContextFitter {
  fitContext(
    messages: NeutralMessage[],
    system: string,
    tools: ToolDefinition[],
  ): { messages: NeutralMessage[]; system: string; omittedMessages: number; inputTokens: number };
  stream(provider: ModelProvider, request: ModelRequest): AsyncIterable<StreamEvent>;
}

export const omittedNote = (count: number) =>
  `\n\n(${count} earlier messages of this conversation are not included here for lack of room.)`;

export const shrunkNotice = (model: string, count: number) =>
  `The conversation was too long for ${model}: the request was sent again without its ` +
  `${count} oldest messages. Start a new conversation, or pick a model with a larger context ` +
  "window, to keep everything in view.";

export function contextFitter(options: ContextFitOptions): ContextFitter {
  const estimate = new TokenEstimator(options.charsPerToken);
  let shrunkOnce = false;
  /** After a shrink, the first message kept: later steps of the turn leave out the same ones. */
  let keptFrom: NeutralMessage | null = null;
  const withoutShrunk = (request: ModelRequest): ModelRequest => {
    const at = keptFrom ? request.messages.indexOf(keptFrom) : -1;
    return at > 0 ? { ...request, messages: request.messages.slice(at) } : request;
  };
  return {
    fitContext(messages, system, tools) {
      const systemTokens = estimate.text(system);
      const toolTokens = estimate.text(JSON.stringify(tools));
      const budget = historyBudget({
        window: options.window,
        maxTokens: options.maxTokens,
        systemTokens,
        toolTokens,
      });
      const fitted = assembleHistory(messages, budget, estimate);
      return {
        messages: fitted.messages,
        system: fitted.omittedMessages > 0 ? system + omittedNote(fitted.omittedMessages) : system,
        omittedMessages: fitted.omittedMessages,
        inputTokens: systemTokens + toolTokens + fitted.tokens,
      };
    },
    async *stream(provider, request) {
      let current = withoutShrunk(request);
      for (;;) {
        let delivered = false;
        let refused: Extract<StreamEvent, { type: "error" }> | null = null;
        for await (const event of options.stream(provider, current)) {
          if (event.type === "error" && event.error.code === "context_too_long" && !delivered) {
            refused = event;
            break;
          }
          if (event.type === "usage" && event.inputTokens > 0)
            options.learnedCharsPerToken?.(
              correctedCharsPerToken(requestChars(current), event.inputTokens),
            );
          if (event.type !== "usage" && event.type !== "finish") delivered = true;
          yield event;
        }
        if (!refused) return;
        const shrunk = shrunkOnce ? null : shrinkForRetry(current.messages, estimate);
        if (!shrunk || shrunk.omittedMessages === 0) {
          yield refused;
          return;
        }
        shrunkOnce = true;
        keptFrom = shrunk.messages[0] ?? null;
        options.emit({
          type: "notice",
          level: "warning",
          message: shrunkNotice(options.model, shrunk.omittedMessages),
        });
        current = { ...current, messages: shrunk.messages };
      }
    },
  };
}

/** Characters of a request as the estimator counts them (images at their token price × 4). */
export function requestChars(request: ModelRequest): number {
  const estimate = new TokenEstimator(1);
  return (
    (request.system?.length ?? 0) +
    JSON.stringify(request.tools ?? []).length +
    estimate.messages(request.messages)
  );
}
