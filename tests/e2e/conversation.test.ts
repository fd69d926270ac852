import { afterAll, beforeAll, expect, it } from "vitest";
import { applyEvent, emptyTranscript } from "../../durable-objects/protocol/transcript";
import { range, SseReader } from "../support/sse-client";
import { socketTurn } from "./socket-turn";
import { type Stack, startStack } from "./stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack((mock) => {
    mock.onMessage(
      /tell me a story/,
      { content: "Once upon a time, a worker ran at the edge. The end." },
      { chunkSize: 6, latency: 20 },
    );
  });
});
afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.token}` });

it("holds a streamed conversation over a real WebSocket against wrangler dev and aimock", async () => {
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: JSON.stringify({ title: "e2e" }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const events = await socketTurn(stack, id, "tell me a story", "e2e-1");

  expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(3);
  const transcript = events.reduce(applyEvent, emptyTranscript());
  expect(transcript.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(transcript.messages[1]?.content).toContainEqual({
    type: "text",
    text: "Once upon a time, a worker ran at the edge. The end.",
  });

  // The same conversation through SSE, resumable from any event id.
  const sse = await fetch(`${stack.url}/api/conversations/${id}/events`, {
    headers: { ...auth(), "last-event-id": "2" },
  });
  expect(sse.headers.get("content-type")).toContain("text/event-stream");
  const text = await sse.text();
  const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  expect(ids[0]).toBe(3);
  expect(ids[ids.length - 1]).toBe(events[events.length - 1]!.seq);

  // And it is in D1 (the outbox lands it moments after the turn).
  let roles: string[] = [];
  for (let i = 0; i < 40 && roles.length < 2; i++) {
    const messages = (await (
      await fetch(`${stack.url}/api/conversations/${id}/messages`, { headers: auth() })
    ).json()) as { items: Array<{ role: string }> };
    roles = messages.items.map((m) => m.role);
    if (roles.length < 2) await new Promise((r) => setTimeout(r, 100));
  }
  expect(roles).toEqual(["user", "assistant"]);
});

it("holds a conversation the README's curl way: POST /chat, then GET /events with Last-Event-ID", async () => {
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: JSON.stringify({ title: "From curl" }),
  });
  const { id } = (await created.json()) as { id: string };
  const send = () =>
    fetch(`${stack.url}/api/conversations/${id}/chat`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ clientMessageId: "msg-1", text: "tell me a story" }),
    });

  const chat = await send();
  expect(chat.status).toBe(200);
  expect(chat.headers.get("content-type")).toContain("text/event-stream");
  expect(chat.headers.get("x-content-type-options")).toBe("nosniff");
  // The stream ends by itself once the message's turn has ended.
  const turn = await new SseReader(chat).done(60_000);
  expect(turn.map((e) => e.seq)).toEqual(range(0, turn.length));
  expect(turn.at(-1)).toMatchObject({ type: "turn_ended", status: "complete" });
  expect(turn.length).toBeGreaterThan(7);

  // "cut off? resume exactly where you were": everything after event 7, then the stream ends.
  const resumed = await fetch(`${stack.url}/api/conversations/${id}/events`, {
    headers: { ...auth(), "last-event-id": "7" },
  });
  expect(resumed.status).toBe(200);
  expect(await new SseReader(resumed).done()).toEqual(turn.slice(7));

  // The same message sent again is not stored twice: the same turn comes back.
  expect(await new SseReader(await send()).done()).toEqual(turn);
});
