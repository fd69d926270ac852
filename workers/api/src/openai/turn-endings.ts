// How a turn that ended without failing is told in each API. It is complete, or cut short:
// cancelled (Cancel in the web client, a WebSocket `cancel`) or interrupted (the service
// restarted too often during it), keeping what it had shown; a complete answer may also have
// been ended short by the provider (at max tokens, or by its filter or the model's refusal). A
// client must not take a cut-short answer for a whole one.
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";

/** How the turn ended, as its turn_ended event says. */
export type TurnEnd = Pick<Extract<ServerEvent, { type: "turn_ended" }>, "status" | "cutShort">;

/**
 * Chat completions' finish_reason. A provider's own stop is OpenAI's value for it ("length",
 * "content_filter"). OpenAI's schema has no value for a cancelled or interrupted answer;
 * "length" is the one that says "the answer did not end on its own", where "stop" would claim it
 * did. The conversation's message status says which it was.
 */
export const finishReasonOf = (end: TurnEnd): "stop" | "length" | "content_filter" =>
  end.status !== "complete" ? "length" : (end.cutShort ?? "stop");

export interface ResponseEnding {
  status: "completed" | "cancelled" | "incomplete";
  /** The status of the message item the turn ended in. */
  item: "completed" | "incomplete";
  /**
   * Why a response is incomplete. OpenAI's reasons (max_output_tokens, content_filter) do not
   * fit a turn the service interrupted, so its reason is "interrupted", an addition the README
   * documents. A turn stopped by a budget ends complete, with a note in its answer.
   */
  incompleteDetails: { reason: string } | null;
  /** The Responses stream's last event: OpenAI's streams have no response.cancelled. */
  event: "response.completed" | "response.incomplete";
}

export function responseEndingOf({ status, cutShort }: TurnEnd): ResponseEnding {
  // OpenAI's own reasons for a response the model was stopped in.
  if (status === "complete" && cutShort)
    return {
      status: "incomplete",
      item: "incomplete",
      incompleteDetails: { reason: cutShort === "length" ? "max_output_tokens" : "content_filter" },
      event: "response.incomplete",
    };
  if (status === "complete")
    return {
      status: "completed",
      item: "completed",
      incompleteDetails: null,
      event: "response.completed",
    };
  if (status === "cancelled")
    return {
      status: "cancelled",
      item: "incomplete",
      incompleteDetails: null,
      event: "response.incomplete",
    };
  return {
    status: "incomplete",
    item: "incomplete",
    incompleteDetails: { reason: status },
    event: "response.incomplete",
  };
}
