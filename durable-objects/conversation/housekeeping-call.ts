// One housekeeping call (the title, the rolling summary): the model's text, and its usage written
// like an answer's, as a usage row of the conversation's owner (in the outbox, so it reaches D1
// with the rest). It belongs to no answer, so it has no turn or step; it still costs the owner at
// the provider, so it counts toward their daily allowance and shows in the conversation's usage.
// Once its rows are sent to D1, a `usage_recorded` event tells clients (an open page's meter reads
// the usage again; an SSE client gets the figures).
import type { Env } from "../../shared/env";
import { pricedCall } from "../loop/usage-meter";
import { addCall, EMPTY_USAGE, type UsageTotals } from "../protocol/usage";
import type { NewServerEvent } from "../protocol/wire";
import { streamWithRetries } from "../providers/retry";
import type { ModelRequest, StreamEvent } from "../providers/types";
import type { HousekeepingModel } from "./housekeeping-model";
import { modelPrices } from "./model-prices";
import { enqueueUsage } from "./outbox";
import type { ConversationStore } from "./store";

type Usage = Extract<StreamEvent, { type: "usage" }>;

/** Where a housekeeping call's usage goes: the owner's usage rows, then D1, then clients. */
export interface HousekeepingUsageSink {
  env: Pick<Env, "MODEL_PRICES">;
  store: ConversationStore;
  conversationId: string;
  ownerId: string;
  /** What the call was for, as the event names it. */
  purpose: Extract<NewServerEvent, { type: "usage_recorded" }>["purpose"];
  /** Sends the outbox on to D1 (the conversation's own flush); resolves once it was tried. */
  flush: () => Promise<void>;
  emit: (event: NewServerEvent) => void;
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
  if (sink && used.length > 0) await record(sink, writer, used);
  return error === null ? { text } : { text: null, error };
}

/** Writes the call's usage rows (one per attempt), sends them to D1, then tells clients. */
async function record(
  sink: HousekeepingUsageSink,
  writer: HousekeepingModel,
  used: Usage[],
): Promise<void> {
  let call: UsageTotals = EMPTY_USAGE;
  const provider = used[0]?.servedBy?.provider ?? writer.provider.id;
  const model = used[0]?.servedBy?.model ?? writer.model;
  for (const usage of used) {
    const figures = pricedCall(
      usage,
      usage.servedBy?.model ?? writer.model,
      modelPrices(sink.env),
      usage.cut,
    );
    enqueueUsage(sink.store, {
      userId: sink.ownerId,
      conversationId: sink.conversationId,
      provider: usage.servedBy?.provider ?? writer.provider.id,
      model: usage.servedBy?.model ?? writer.model,
      ...figures,
    });
    call = addCall(call, figures);
  }
  await sink.flush();
  sink.emit({ type: "usage_recorded", purpose: sink.purpose, provider, model, call });
}
