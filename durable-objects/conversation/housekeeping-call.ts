// One housekeeping call (the title, the rolling summary): the model's text, and its usage written
// like an answer's, as a usage row of the conversation's owner (in the outbox, so it reaches D1
// with the rest). It belongs to no answer, so it has no turn or step; it still costs the owner at
// the provider, so it counts toward their daily allowance and shows in the conversation's usage.
import type { Env } from "../../shared/env";
import { pricedCall } from "../loop/usage-meter";
import { streamWithRetries } from "../providers/retry";
import type { ModelRequest, StreamEvent } from "../providers/types";
import type { HousekeepingModel } from "./housekeeping-model";
import { modelPrices } from "./model-prices";
import { enqueueUsage } from "./outbox";
import type { ConversationStore } from "./store";

type Usage = Extract<StreamEvent, { type: "usage" }>;

/** Where a housekeeping call's usage goes: the owner's usage rows, then D1. */
export interface HousekeepingUsageSink {
  env: Pick<Env, "MODEL_PRICES">;
  store: ConversationStore;
  conversationId: string;
  ownerId: string;
  /** Sends the outbox on to D1 (the conversation's own flush). */
  flush: () => void;
}

export type HousekeepingResult = { text: string } | { text: null; error: string };

/**
 * Streams `request` to `writer`; what its provider reported of usage is recorded in `sink`,
 * whether the call ended well or not (a call that failed after its input was read still costs).
 */
export async function housekeepingCall(
  writer: HousekeepingModel,
  request: Omit<ModelRequest, "model">,
  sink?: HousekeepingUsageSink,
): Promise<HousekeepingResult> {
  let text = "";
  const used: Usage[] = [];
  let error: string | null = null;
  for await (const event of streamWithRetries(writer.provider, {
    ...request,
    model: writer.model,
  })) {
    if (event.type === "text_delta") text += event.text;
    // A call its provider says used nothing costs nothing: no row for it.
    else if (event.type === "usage" && event.inputTokens + event.outputTokens > 0) used.push(event);
    else if (event.type === "error") {
      error = event.error.message;
      break;
    }
  }
  if (sink) for (const usage of used) recordUsage(sink, writer, usage);
  if (used.length > 0) sink?.flush();
  return error === null ? { text } : { text: null, error };
}

function recordUsage(sink: HousekeepingUsageSink, writer: HousekeepingModel, usage: Usage): void {
  const model = usage.servedBy?.model ?? writer.model;
  enqueueUsage(sink.store, {
    userId: sink.ownerId,
    conversationId: sink.conversationId,
    provider: usage.servedBy?.provider ?? writer.provider.id,
    model,
    ...pricedCall(usage, model, modelPrices(sink.env), usage.cut),
  });
}
