import { describe, expect, it } from "vitest";
import { api, createConversation, createUser, errorOf } from "../../../../tests/support/helpers";
import { isTurnEnd, range, SseReader } from "../../../../tests/support/sse-client";

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "no-referrer",
};

describe("Server-Sent Events through the API worker", () => {
  it("POST /chat answers 200 with the turn's stream and the security headers", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const res = await api(user, `/api/conversations/${conv.id}/chat`, {
      method: "POST",
      json: { clientMessageId: "h1", text: "hello over SSE" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("cache-control")).toContain("no-cache");
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(res.headers.get(name), name).toBe(value);

    const events = await new SseReader(res).done();
    expect(events.map((e) => e.seq)).toEqual(range(0, events.length));
    expect(events[0]).toMatchObject({ type: "user_message", message: { clientMessageId: "h1" } });
    expect(events.at(-1)?.type).toBe("turn_ended");
    expect(events.filter(isTurnEnd)).toHaveLength(1);
  });

  it("GET /events carries the security headers too", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const res = await api(user, `/api/conversations/${conv.id}/events`);
    expect(res.status).toBe(200);
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(res.headers.get(name), name).toBe(value);
    expect(await new SseReader(res).done()).toEqual([]);
  });

  it("refuses a Last-Event-ID or ?after= that is not a sequence number, saying what to send", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const attempts: Array<[string, RequestInit & { json?: unknown }]> = [
      [`/api/conversations/${conv.id}/events`, { headers: { "last-event-id": "seven" } }],
      [`/api/conversations/${conv.id}/events?after=-1`, {}],
      [
        `/api/conversations/${conv.id}/chat`,
        {
          method: "POST",
          headers: { "last-event-id": "1.5" },
          json: { clientMessageId: "bad-id", text: "hi" },
        },
      ],
    ];
    for (const [path, init] of attempts) {
      const res = await api(user, path, init);
      expect(res.status, path).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(
        /(last-event-id|after): expected the id of an event you received/i,
      );
    }
    // The refused message was not stored: the conversation's log is still empty.
    const log = await api(user, `/api/conversations/${conv.id}/events`);
    expect(await new SseReader(log).done()).toEqual([]);
  });

  it("refuses a message of only spaces, and a misspelt field, before anything is stored", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const bodies: Array<[unknown, RegExp]> = [
      [{ clientMessageId: "blank", text: " \n\t " }, /besides spaces/],
      [{ clientMessageId: "typo", text: "hi", attachment: ["x"] }, /attachment/],
    ];
    for (const [json, says] of bodies) {
      const res = await api(user, `/api/conversations/${conv.id}/chat`, { method: "POST", json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(says);
    }
    const log = await api(user, `/api/conversations/${conv.id}/events`);
    expect(await new SseReader(log).done()).toEqual([]);
  });
});
