// A Server-Sent Events stream opened with a session or token that is later revoked ends within
// a few seconds while events stream to it, with a comment saying why; it does not run on until
// its turn ends. Streams of other credentials are not touched.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { isTurnEnd, SseReader } from "../../tests/support/sse-client";
import { conversationStub } from "../../tests/support/api-worker-parts";
import { REVOKED_COMMENT } from "./sse-gate";

const ORIGIN = { origin: "http://app.test" };

async function signIn(user: TestUser): Promise<string> {
  const res = await api(null, "/api/session", { method: "POST", json: { token: user.token } });
  expect(res.status).toBe(200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0]!;
}

const withCookie = (cookie: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
  api(null, path, { ...init, headers: { cookie, ...ORIGIN, ...init.headers } });

const chat = (who: { cookie: string } | TestUser, id: string, clientMessageId: string) => {
  const init = { method: "POST", json: { clientMessageId, text: `slow answer please ${id}` } };
  const res =
    "cookie" in who
      ? withCookie(who.cookie, `/api/conversations/${id}/chat`, init)
      : api(who, `/api/conversations/${id}/chat`, init);
  return res.then((r) => new SseReader(r));
};

/** Three slow turns queued (about 4 s each): the last message's stream lasts over 10 s. */
async function threeSlowTurns(who: { cookie: string } | TestUser, id: string) {
  const streams = [];
  for (const n of [1, 2, 3]) streams.push(await chat(who, id, `q${n}`));
  return streams as [SseReader, SseReader, SseReader];
}

const turnEnds = (stream: SseReader) => stream.events().filter(isTurnEnd).length;

describe("revoking the credential of an open SSE stream", () => {
  it("ends a GET /events stream whose session signed out; the token's own streams run on", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const cookie = await signIn(user);
    const [, , last] = await threeSlowTurns(user, conv.id);
    const listener = new SseReader(
      await withCookie(cookie, `/api/conversations/${conv.id}/events`),
    );
    await listener.until((f) => f.some((x) => x.event === "text_delta"));

    expect((await withCookie(cookie, "/api/session", { method: "DELETE" })).status).toBe(204);

    await listener.done(9_000);
    expect(listener.comments).toContain(REVOKED_COMMENT);
    // Without the re-check it would have followed all three turns to the end.
    expect(turnEnds(listener)).toBeLessThan(3);
    // The token was not revoked: its stream ends with its own turn.
    await last.done(30_000);
    expect(turnEnds(last)).toBe(3);
    expect(last.comments).not.toContain(REVOKED_COMMENT);
  }, 60_000);

  it("ends a POST /chat stream whose token was revoked before its turn ends", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const cookie = await signIn(user);
    const streams = await threeSlowTurns({ cookie }, conv.id);
    const last = streams[2];
    await last.until((f) => f.some((x) => x.event === "text_delta"));

    // The operator's way: the token row deleted in D1, as `npm run tokens -- revoke` does.
    await env.DB.prepare("DELETE FROM api_tokens WHERE user_id = ?").bind(user.id).run();

    await last.done(9_000);
    expect(last.comments).toContain(REVOKED_COMMENT);
    expect(turnEnds(last)).toBeLessThan(3);
    for (const stream of streams) stream.cancel();
  }, 60_000);

  it("the conversation's object refuses a stream that did not come through the API worker", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const stub = await conversationStub(env, conv.id);
    const res = await stub.fetch(new Request("http://app.test/events"));
    expect(res.status).toBe(401);
  });
});
