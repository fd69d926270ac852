// One housekeeping call (the title, the rolling summary): the model's text, and its usage written
// like an answer's, as a usage row of the conversation's owner (in the outbox, so it reaches D1
// with the rest). It belongs to no answer, so it has no turn or step; it still costs the owner at
// the provider, so it counts toward their daily allowance and shows in the conversation's usage.
// Once its rows are sent to D1, a `usage_recorded` event tells clients (an open page's meter reads
// the usage again; an SSE client gets the figures). A call that completed without a usage report
// is a row of zero tokens marked unreported, never a guess.
import type { Env } from "../../shared/env";
import { type CallFlag, pricedCall, saysNothing } from "../loop/usage-meter";
import { addCall, EMPTY_USAGE, type UsageTotals } from "../protocol/usage";
import type { NewServerEvent } from "../protocol/wire";
import { streamWithRetries } from "../providers/retry";
import type { ModelRequest, StreamEvent } from "../providers/types";
import type { HousekeepingModel } from "./housekeeping-model";
import { modelPrices } from "./model-prices";
import { enqueueUsage } from "./outbox";
import type { ConversationStore } from "./store";

type Usage = Extract<StreamEvent, { type: "usage" }>;
/** One attempt's figures, and what they are when not simply the provider's count. */
type Used = { usage: Usage; flag?: CallFlag };
const NO_REPORT: Usage = { type: "usage", inputTokens: 0, outputTokens: 0, cachedTokens: 0 };

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
 * whether the call ended well or not (a call that failed after its input was read still costs),
 * and a call that finished without a report is recorded as unreported.
 */
export async function housekeepingCall(
  writer: HousekeepingModel,
  request: Omit<ModelRequest, "model">,
  sink?: HousekeepingUsageSink,
): Promise<HousekeepingResult> {
  let text = "";
  const used: Used[] = [];
  let reported = false;
  let error: string | null = null;
  for await (const event of streamWithRetries(writer.provider, {
    ...request,
    model: writer.model,
  })) {
    if (event.type === "text_delta") text += event.text;
    else if (event.type === "usage") {
      reported = true;
      // A call cut short is estimated, and all zeros (a call always reads input) is no report.
      if (saysNothing(event)) used.push({ usage: event, flag: "unreported" });
      else used.push({ usage: event, ...(event.cut && { flag: "estimated" as const }) });
    } else if (event.type === "finish") {
      if (!reported) used.push({ usage: NO_REPORT, flag: "unreported" });
      reported = false;
    } else if (event.type === "error") {
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
  used: Used[],
): Promise<void> {
  let call: UsageTotals = EMPTY_USAGE;
  const provider = used[0]?.usage.servedBy?.provider ?? writer.provider.id;
  const model = used[0]?.usage.servedBy?.model ?? writer.model;
  for (const { usage, flag } of used) {
    const figures = pricedCall(
      usage,
      usage.servedBy?.model ?? writer.model,
      modelPrices(sink.env),
      flag,
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
