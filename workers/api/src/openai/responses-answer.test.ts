// A turn as Responses events: items open and close in the order the turn switched between
// reasoning and text, a failed turn ends with response.failed carrying its error, and one cut
// short with response.incomplete.
import { expect, it } from "vitest";
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";
import { conversationOfResponse, responseIdOf, streamResponse } from "./responses-answer";

let seq = 0;
const e = (event: Record<string, unknown>) => ({ seq: ++seq, at: 0, ...event }) as ServerEvent;
const MESSAGE = "0b9a4b8e-6a49-4c0e-9d55-2f1f4a3c9e10";

function turn(...rest: Record<string, unknown>[]): ServerEvent[] {
  return [
    e({
      type: "user_message",
      message: {
        id: "u-1",
        role: "user",
        content: [],
        status: "complete",
        seq,
        clientMessageId: MESSAGE,
        createdAt: 0,
      },
    }),
    e({
      type: "turn_started",
      turnId: "t-1",
      messageId: "a-1",
      order: 1,
      userMessageId: "u-1",
      provider: "p",
      model: "m",
    }),
    ...rest.map(e),
  ];
}

async function eventsOf(events: ServerEvent[]): Promise<Array<Record<string, unknown>>> {
  async function* served() {
    yield* events;
  }
  const answer = {
    id: responseIdOf("conv-1", MESSAGE),
    created: 0,
    model: "thinking-chat",
    conversationId: "conv-1",
    clientMessageId: MESSAGE,
  };
  const text = await new Response(streamResponse(answer, served())).text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((block) => JSON.parse(block.split("\n")[1]!.slice(6)) as Record<string, unknown>);
}

it("opens an item per switch between reasoning and text, each closed before the next", async () => {
  const events = await eventsOf(
    turn(
      { type: "reasoning_delta", messageId: "a-1", delta: "Think." },
      { type: "text_delta", messageId: "a-1", delta: "Draft" },
      { type: "notice", level: "warning", message: "slow tool" },
      { type: "text_delta", messageId: "a-1", delta: "Answer." },
      { type: "turn_ended", turnId: "t-1", status: "complete" },
    ),
  );
  expect(events.map((x) => x.sequence_number)).toEqual(events.map((_, i) => i));
  const items = events
    .filter((x) => x.type === "response.output_item.done")
    .map((x) => x.item as { type: string; output_index?: number });
  expect(items.map((i) => i.type)).toEqual(["reasoning", "message", "reasoning", "message"]);
  const last = events.at(-1) as { type: string; response: { status: string; output: unknown[] } };
  expect(last.type).toBe("response.completed");
  expect(last.response.output).toEqual(items);
  expect(last.response.output[3]).toMatchObject({
    content: [{ type: "output_text", text: "Answer." }],
  });
});

it("ends a failed turn with response.failed and its error, after closing the open item", async () => {
  const events = await eventsOf(
    turn(
      { type: "text_delta", messageId: "a-1", delta: "Partly" },
      {
        type: "turn_failed",
        turnId: "t-1",
        error: { code: "provider_error", message: "The provider is down." },
      },
    ),
  );
  expect(events.slice(-2).map((x) => x.type)).toEqual([
    "response.output_item.done",
    "response.failed",
  ]);
  expect(events.at(-1)).toMatchObject({
    response: {
      status: "failed",
      error: { code: "provider_error", message: "The provider is down." },
    },
  });
});

it("ends a turn the service interrupted with response.incomplete, its message item incomplete", async () => {
  const events = await eventsOf(
    turn(
      { type: "text_delta", messageId: "a-1", delta: "Half an answer" },
      { type: "turn_ended", turnId: "t-1", status: "interrupted" },
    ),
  );
  expect(events.filter((x) => x.type === "response.completed")).toEqual([]);
  expect(events.at(-1)).toMatchObject({
    type: "response.incomplete",
    response: {
      status: "incomplete",
      incomplete_details: { reason: "interrupted" },
      output: [{ type: "message", status: "incomplete" }],
    },
  });
  expect(events.at(-2)).toMatchObject({
    type: "response.output_item.done",
    item: { type: "message", status: "incomplete" },
  });
});

it("ends a stream that stops before its turn did as failed, saying the conversation has the rest", async () => {
  const events = await eventsOf(turn({ type: "text_delta", messageId: "a-1", delta: "Cut" }));
  expect(events.at(-1)).toMatchObject({
    type: "response.failed",
    response: {
      error: {
        code: "upstream_failed",
        message: expect.stringMatching(/conversation still has the rest/),
      },
    },
  });
});

it("reads the conversation back from a response id, and nothing from another", () => {
  expect(conversationOfResponse(responseIdOf("9f1c_x-y", MESSAGE))).toBe("9f1c_x-y");
  expect(conversationOfResponse("resp_67ccd2bed1ec8190")).toBeNull();
});
