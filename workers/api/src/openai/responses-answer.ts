// The two answer shapes of POST /v1/responses: a `response` object, or OpenAI's stream of
// Responses events (response.created … response.completed). The answer's text is a `message`
// item; the model's reasoning and the turn's tool activity are `reasoning` items with a summary,
// which clients show as thinking. Each switch between the two opens a new item, in order.
import type { UsageTotals } from "../../../../durable-objects/protocol/usage";
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";
import { CUT_SHORT, wholeAnswer } from "./completion-answers";
import { ApiError } from "../http/errors";
import { type ResponseEnding, responseEndingOf } from "./turn-endings";
import { TurnToOpenAi } from "./turn-to-openai";

export interface ResponseAnswer {
  /** `resp_<conversation>_<message>`: a later request's previous_response_id names the conversation. */
  id: string;
  created: number;
  model: string;
  conversationId: string;
  clientMessageId: string;
}

const ID = /^resp_(.+)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const responseIdOf = (conversationId: string, clientMessageId: string) =>
  `resp_${conversationId}_${clientMessageId}`;

/** The conversation a response of ours came from, or null for an id that is not ours. */
export function conversationOfResponse(id: string): string | null {
  return ID.exec(id)?.[1] ?? null;
}

type Kind = "message" | "reasoning";
type OutputItem =
  | { type: "reasoning"; id: string; summary: Array<{ type: "summary_text"; text: string }> }
  | {
      type: "message";
      id: string;
      role: "assistant";
      status: ResponseEnding["item"];
      content: Array<{ type: "output_text"; text: string; annotations: [] }>;
    };

function item(
  kind: Kind,
  id: string,
  text: string,
  status: ResponseEnding["item"] = "completed",
): OutputItem {
  return kind === "reasoning"
    ? { type: "reasoning", id, summary: [{ type: "summary_text", text }] }
    : {
        type: "message",
        id,
        role: "assistant",
        status,
        content: [{ type: "output_text", text, annotations: [] }],
      };
}

/** The turn's tokens, every model call of every step, as the Responses API reports them. */
const responseUsage = (u: UsageTotals) => ({
  input_tokens: u.inputTokens,
  input_tokens_details: { cached_tokens: u.cachedTokens },
  output_tokens: u.outputTokens,
  output_tokens_details: { reasoning_tokens: u.reasoningTokens },
  total_tokens: u.inputTokens + u.outputTokens,
});

function responseObject(
  answer: ResponseAnswer,
  status: "in_progress" | "failed" | ResponseEnding["status"],
  output: OutputItem[],
  error: { code: string; message: string } | null = null,
  usage: UsageTotals | null = null,
  incompleteDetails: ResponseEnding["incompleteDetails"] = null,
) {
  return {
    id: answer.id,
    object: "response" as const,
    created_at: answer.created,
    model: answer.model,
    status,
    output,
    error,
    incomplete_details: incompleteDetails,
    instructions: null,
    metadata: {},
    parallel_tool_calls: false,
    temperature: null,
    tool_choice: "auto" as const,
    tools: [],
    top_p: null,
    usage: usage && responseUsage(usage),
  };
}

export async function responseBody(answer: ResponseAnswer, events: AsyncIterable<ServerEvent>) {
  const { text, reasoning, usage, end } = await wholeAnswer(answer, events);
  const ending = responseEndingOf(end);
  return responseObject(
    answer,
    ending.status,
    [
      ...(reasoning ? [item("reasoning", `rs_${answer.clientMessageId}`, reasoning)] : []),
      item("message", `msg_${answer.clientMessageId}`, text, ending.item),
    ],
    null,
    usage,
    ending.incompleteDetails,
  );
}

/** The items of a streamed response, as its deltas open, fill and close them. */
class StreamedOutput {
  readonly done: OutputItem[] = [];
  private open: { kind: Kind; id: string; text: string } | null = null;

  constructor(private readonly answer: ResponseAnswer) {}

  /** The events that add `delta` to an item of `kind`, opening one when the kind changes. */
  add(kind: Kind, delta: string): object[] {
    const events = this.open?.kind === kind ? [] : [...this.close(), ...this.start(kind)];
    const open = this.open!;
    open.text += delta;
    const at = { item_id: open.id, output_index: this.done.length };
    events.push(
      kind === "message"
        ? { type: "response.output_text.delta", ...at, content_index: 0, delta, logprobs: [] }
        : { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta },
    );
    return events;
  }

  private start(kind: Kind): object[] {
    const id = `${kind === "message" ? "msg" : "rs"}_${this.answer.clientMessageId}_${this.done.length}`;
    this.open = { kind, id, text: "" };
    const at = { item_id: id, output_index: this.done.length };
    const empty = item(kind, id, "");
    return [
      {
        type: "response.output_item.added",
        output_index: at.output_index,
        item:
          kind === "message"
            ? { ...empty, status: "in_progress", content: [] }
            : { ...empty, summary: [] },
      },
      kind === "message"
        ? {
            type: "response.content_part.added",
            ...at,
            content_index: 0,
            part: { type: "output_text", text: "", annotations: [] },
          }
        : {
            type: "response.reasoning_summary_part.added",
            ...at,
            summary_index: 0,
            part: { type: "summary_text", text: "" },
          },
    ];
  }

  /** The events that finish the open item, if any; `status`: a message's, when the turn ends. */
  close(status: ResponseEnding["item"] = "completed"): object[] {
    if (!this.open) return [];
    const { kind, id, text } = this.open;
    const at = { item_id: id, output_index: this.done.length };
    const whole = item(kind, id, text, status);
    this.done.push(whole);
    this.open = null;
    return kind === "message"
      ? [
          { type: "response.output_text.done", ...at, content_index: 0, text, logprobs: [] },
          {
            type: "response.content_part.done",
            ...at,
            content_index: 0,
            part: { type: "output_text", text, annotations: [] },
          },
          { type: "response.output_item.done", output_index: at.output_index, item: whole },
        ]
      : [
          { type: "response.reasoning_summary_text.done", ...at, summary_index: 0, text },
          {
            type: "response.reasoning_summary_part.done",
            ...at,
            summary_index: 0,
            part: { type: "summary_text", text },
          },
          { type: "response.output_item.done", output_index: at.output_index, item: whole },
        ];
  }
}

export function streamResponse(
  answer: ResponseAnswer,
  events: AsyncIterable<ServerEvent>,
): ReadableStream<Uint8Array> {
  const turn = new TurnToOpenAi(answer.conversationId, answer.clientMessageId);
  const output = new StreamedOutput(answer);
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let sequence = 0;
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, list: object[]) => {
    for (const e of list) {
      const event = { ...e, sequence_number: sequence++ };
      const type = (e as { type: string }).type;
      controller.enqueue(encoder.encode(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`));
    }
  };
  /** Closes the open item, then the response: failed with `error`, else as `ending` says. */
  const end = (
    controller: ReadableStreamDefaultController<Uint8Array>,
    outcome: { error: { code: string; message: string } } | { ending: ResponseEnding },
  ) => {
    const ending = "ending" in outcome ? outcome.ending : null;
    const closing = output.close(ending?.item);
    const response = responseObject(
      answer,
      ending?.status ?? "failed",
      output.done,
      "error" in outcome ? outcome.error : null,
      turn.usage,
      ending?.incompleteDetails ?? null,
    );
    send(controller, [...closing, { type: ending?.event ?? "response.failed", response }]);
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const response = responseObject(answer, "in_progress", []);
      send(controller, [
        { type: "response.created", response },
        { type: "response.in_progress", response },
      ]);
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
          return end(controller, { error: { code: next.code, message: next.message } });
        if (next.done)
          return end(controller, { error: { code: "upstream_failed", message: CUT_SHORT } });
        const step = turn.step(next.value);
        if (!step || step.kind === "completed") continue;
        if (step.kind === "failed") return end(controller, { error: step.error });
        if (step.kind === "finished") return end(controller, { ending: responseEndingOf(step) });
        const { content, reasoning_content: reasoning } = step.delta;
        if (content) return send(controller, output.add("message", content));
        if (reasoning) return send(controller, output.add("reasoning", reasoning));
      }
    },
    async cancel() {
      // The client hung up: stop reading; the turn runs on and stays in the conversation.
      await iterator.return?.();
    },
  });
}
