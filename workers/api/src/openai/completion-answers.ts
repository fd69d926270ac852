// The two answer shapes of POST /v1/chat/completions: a `chat.completion` object, or a stream of
// `chat.completion.chunk` events ending with `data: [DONE]` (OpenAI's Server-Sent Events).
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";
import type { UsageTotals } from "../../../../durable-objects/protocol/usage";
import { ApiError } from "../http/errors";
import { openAiErrorFields } from "./error-shape";
import { finishReasonOf, type TurnEnd } from "./turn-endings";
import { DO_NOT_RETRY, turnFailure } from "./turn-failures";
import { type OpenAiDelta, TurnToOpenAi } from "./turn-to-openai";

export interface CompletionAnswer {
  id: string;
  created: number;
  model: string;
  conversationId: string;
  clientMessageId: string;
}

/** The turn's tokens, every model call of every step, as chat completions report them. */
export const completionUsage = (u: UsageTotals) => ({
  prompt_tokens: u.inputTokens,
  completion_tokens: u.outputTokens,
  total_tokens: u.inputTokens + u.outputTokens,
  prompt_tokens_details: { cached_tokens: u.cachedTokens },
  completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
});

export const CUT_SHORT =
  "The answer's stream ended before its turn did; the conversation still has the rest.";

/**
 * The turn read to its end: the answer as stored (after any step a restart ran again), else as
 * streamed, the reasoning and tool activity, and how the turn ended. A failed or cut-off turn is an error that tells
 * the client not to send the message again (turn-failures.ts).
 */
export async function wholeAnswer(
  answer: Pick<CompletionAnswer, "conversationId" | "clientMessageId">,
  events: AsyncIterable<ServerEvent>,
): Promise<{
  text: string;
  reasoning: string;
  usage: UsageTotals | null;
  end: TurnEnd;
}> {
  const turn = new TurnToOpenAi(answer.conversationId, answer.clientMessageId);
  let streamed = "";
  let stored: string | undefined;
  let reasoning = "";
  for await (const event of events) {
    const step = turn.step(event);
    if (!step) continue;
    if (step.kind === "delta") {
      streamed += step.delta.content ?? "";
      reasoning += step.delta.reasoning_content ?? "";
    } else if (step.kind === "completed") stored = step.text;
    else if (step.kind === "failed") throw turnFailure(step.error);
    else {
      const { kind: _finished, ...end } = step;
      return { text: stored ?? streamed, reasoning, usage: turn.usage, end };
    }
  }
  throw new ApiError(502, "upstream_failed", CUT_SHORT, undefined, DO_NOT_RETRY);
}

export async function completionBody(answer: CompletionAnswer, events: AsyncIterable<ServerEvent>) {
  const { text, reasoning, usage, end } = await wholeAnswer(answer, events);
  return {
    id: answer.id,
    object: "chat.completion" as const,
    ...(usage && { usage: completionUsage(usage) }),
    created: answer.created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant" as const,
          content: text,
          refusal: null,
          ...(reasoning && { reasoning_content: reasoning }),
        },
        finish_reason: finishReasonOf(end),
        logprobs: null,
      },
    ],
  };
}

/** `includeUsage`: the client's `stream_options.include_usage`, a last chunk with the usage. */
export function streamCompletion(
  answer: CompletionAnswer,
  events: AsyncIterable<ServerEvent>,
  includeUsage = false,
): ReadableStream<Uint8Array> {
  const turn = new TurnToOpenAi(answer.conversationId, answer.clientMessageId);
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const sse = (data: unknown) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`);
  const chunkOf = (rest: object) =>
    sse({
      id: answer.id,
      object: "chat.completion.chunk",
      created: answer.created,
      model: answer.model,
      ...rest,
    });
  const chunk = (
    delta: OpenAiDelta & { role?: "assistant" },
    finish: ReturnType<typeof finishReasonOf> | null = null,
  ) => chunkOf({ choices: [{ index: 0, delta, finish_reason: finish }] });
  const end = (controller: ReadableStreamDefaultController<Uint8Array>, last: Uint8Array) => {
    controller.enqueue(last);
    if (includeUsage && turn.usage)
      controller.enqueue(chunkOf({ choices: [], usage: completionUsage(turn.usage) }));
    controller.enqueue(encoder.encode("data: [DONE]\n\n"));
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(chunk({ role: "assistant", content: "" }));
    },
    // One event at a time, as the client reads: a slow client holds the conversation's stream.
    async pull(controller) {
      for (;;) {
        const next = await iterator.next().catch((err: unknown) => {
          if (err instanceof ApiError) return err;
          throw err;
        });
        // The conversation ended the stream saying why (the reader lost access, say).
        if (next instanceof ApiError)
          return end(
            controller,
            sse({
              error: {
                message: next.message,
                code: next.code,
                ...openAiErrorFields(next.status, undefined),
              },
            }),
          );
        if (next.done)
          return end(
            controller,
            sse({ error: { message: CUT_SHORT, code: "upstream_failed", type: "server_error" } }),
          );
        const step = turn.step(next.value);
        if (!step || step.kind === "completed") continue;
        if (step.kind === "delta") return controller.enqueue(chunk(step.delta));
        if (step.kind === "failed")
          return end(
            controller,
            sse({
              error: { message: step.error.message, code: step.error.code, type: "server_error" },
            }),
          );
        return end(controller, chunk({}, finishReasonOf(step)));
      }
    },
    async cancel() {
      // The client hung up: stop reading; the turn runs on and stays in the conversation.
      await iterator.return?.();
    },
  });
}
