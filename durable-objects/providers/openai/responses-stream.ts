// The Responses API's streamed events → neutral stream events: text and reasoning deltas as they
// come, function calls assembled per output item (their arguments arrive in pieces, and whole in
// the item's `done` event), encrypted reasoning items, usage and the finish reason from the
// response's last event.
import type OpenAI from "openai";
import { abortedError, truncatedError } from "../errors";
import type { FinishReason, ModelRequest, ProviderErrorInfo, StreamEvent } from "../types";
import { mapOpenAIError, mapResponsesStreamError, openAIContext } from "./map-error";
import type { ReasoningSummary } from "./api-choice";
import { type ResponsesOptions, toResponsesRequest } from "./responses-request";
import { reasons } from "./sampling";
import { type PendingCalls, streamEnd, usageEvent } from "./stream-end";

type Response = OpenAI.Responses.Response;

export async function* streamResponses(
  client: OpenAI,
  official: boolean,
  request: ModelRequest,
  summary?: ReasoningSummary,
): AsyncIterable<StreamEvent> {
  const extras = reasons(request.model, official) || holdsSealed(request);
  for await (const event of attempt(client, official, request, { ...(summary && { summary }) })) {
    // What the plain request lacks (encrypted reasoning asked for or sent back, a summary) must
    // not fail a step the plain request would serve: OpenAI may refuse encrypted reasoning it can
    // no longer open (the key's organisation changed while an approval waited), or a summary
    // to an organisation it has not verified. The step goes again as the plain request.
    if (event.type === "error" && extras && refusedExtras(event.error)) {
      console.warn(
        JSON.stringify({
          level: "warn",
          event: "openai_extras_refused",
          model: request.model,
          message: `${event.error.message} Asked again without encrypted reasoning or a reasoning summary${summary ? "; unset OPENAI_REASONING_SUMMARY if OpenAI refuses summaries to this organisation" : ""}.`,
        }),
      );
      yield* attempt(client, official, request, { sealed: false });
      return;
    }
    yield event;
  }
}

const refusedExtras = (error: ProviderErrorInfo): boolean =>
  error.status === 400 && /encrypt|reasoning|summar|verif/i.test(error.message);

const holdsSealed = (request: ModelRequest): boolean =>
  request.messages.some((m) => m.content.some((p) => p.type === "encrypted_reasoning"));

async function* attempt(
  client: OpenAI,
  official: boolean,
  request: ModelRequest,
  options: ResponsesOptions,
): AsyncIterable<StreamEvent> {
  const ctx = openAIContext(official);
  const calls: PendingCalls = new Map();
  // Given out with the calls, once the response is whole: a retried attempt's never is.
  const sealed: Extract<StreamEvent, { type: "encrypted_reasoning" }>[] = [];
  let last: Response | null = null;
  let refused = false;
  try {
    const body = toResponsesRequest(request, official, options);
    const stream = await client.responses.create(body, {
      ...(request.signal && { signal: request.signal }),
    });
    for await (const event of stream) {
      switch (event.type) {
        case "response.output_text.delta":
          if (event.delta) yield { type: "text_delta", text: event.delta };
          break;
        // A refusal comes as its own content, not as text: shown as the answer it is.
        case "response.refusal.delta":
          refused = true;
          if (event.delta) yield { type: "text_delta", text: event.delta };
          break;
        // Summaries from OpenAI's reasoning models; full reasoning text from open models that
        // compatible servers run.
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          if (event.delta) yield { type: "reasoning_delta", text: event.delta };
          break;
        // A summary comes in parts, each a paragraph or so.
        case "response.reasoning_summary_part.added":
          if (event.summary_index > 0) yield { type: "reasoning_delta", text: "\n\n" };
          break;
        case "response.output_item.added":
        case "response.output_item.done":
          if (event.item.type === "function_call") {
            const call = calls.get(event.output_index) ?? { id: "", name: "", json: "" };
            call.id ||= event.item.call_id;
            call.name ||= event.item.name;
            // The finished item holds the whole arguments text; the pieces came before it.
            if (event.type === "response.output_item.done") call.json = event.item.arguments;
            calls.set(event.output_index, call);
          } else if (
            event.type === "response.output_item.done" &&
            event.item.type === "reasoning" &&
            event.item.encrypted_content
          )
            sealed.push({
              type: "encrypted_reasoning",
              model: request.model,
              id: event.item.id,
              data: event.item.encrypted_content,
            });
          break;
        case "response.function_call_arguments.delta": {
          const call = calls.get(event.output_index);
          if (call) call.json += event.delta;
          break;
        }
        case "response.completed":
        case "response.incomplete":
          last = event.response;
          break;
        case "response.failed":
          yield { type: "error", error: mapResponsesStreamError(event.response.error ?? {}, ctx) };
          return;
        case "error":
          yield { type: "error", error: mapResponsesStreamError(event, ctx) };
          return;
      }
    }
  } catch (err) {
    yield { type: "error", error: mapOpenAIError(err, ctx, request.signal) };
    return;
  }
  if (request.signal?.aborted) {
    yield { type: "error", error: abortedError() };
    return;
  }
  if (!last) {
    yield { type: "error", error: truncatedError(ctx.provider) };
    return;
  }
  const usage = last.usage
    ? usageEvent(
        last.usage.input_tokens,
        last.usage.output_tokens,
        last.usage.input_tokens_details?.cached_tokens,
        last.usage.output_tokens_details?.reasoning_tokens,
      )
    : null;
  yield* sealed;
  yield* streamEnd(calls, usage, refused ? "content_filter" : finishOf(last));
}

function finishOf(response: Response): FinishReason {
  if (response.status !== "incomplete") return "stop";
  return response.incomplete_details?.reason === "content_filter" ? "content_filter" : "length";
}
