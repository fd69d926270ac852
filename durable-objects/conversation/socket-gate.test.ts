// The WebSocket door: single-use tickets, close handshakes, malformed frames and deletion, as a
// client (and whoever reads the logs) sees them.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTicket } from "../../tests/support/api-worker-parts";
import {
  api,
  BASE,
  createConversation,
  createUser,
  type TestUser,
} from "../../tests/support/helpers";
import { TestSocket } from "../../tests/support/ws-client";

async function ticketFor(user: TestUser, conversationId: string): Promise<string> {
  const res = await api(user, `/api/conversations/${conversationId}/ws-ticket`, { method: "POST" });
  expect(res.status).toBe(200);
  return ((await res.json()) as { ticket: string }).ticket;
}

const withTicket = (conversationId: string, ticket: string) =>
  TestSocket.openWith(conversationId, {}, `?ticket=${encodeURIComponent(ticket)}`);

afterEach(() => vi.restoreAllMocks());

describe("WebSocket tickets", () => {
  it("open one socket each: a reused ticket gets 401", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ticket = await ticketFor(user, conv.id);
    const first = await withTicket(conv.id, ticket);
    first.send({ type: "ping" });
    await first.until((f) => f.some((x) => x.type === "pong"));
    await expect(withTicket(conv.id, ticket)).rejects.toThrow(/401.*already used/);
    first.close();
  });

  it("expire after 20 s, and die with the token that asked for them", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const tokenId = await env.DB.prepare("SELECT id FROM api_tokens WHERE user_id = ?")
      .bind(user.id)
      .first<string>("id");
    const old = await createTicket(
      env,
      BASE,
      { userId: user.id, tokenId: tokenId! },
      conv.id,
      Date.now() - 21_000,
    );
    await expect(withTicket(conv.id, old.ticket)).rejects.toThrow(/401/);
    const fresh = await ticketFor(user, conv.id);
    await env.DB.prepare("DELETE FROM api_tokens WHERE id = ?").bind(tokenId).run();
    await expect(withTicket(conv.id, fresh)).rejects.toThrow(/401/);
  });
});

describe("closing and noise", () => {
  it("answers a close frame without a status code at once (no 1006 ten seconds later)", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "ping" });
    await ws.until((f) => f.some((x) => x.type === "pong"));
    const started = Date.now();
    ws.ws.close(); // what a browser's ws.close() sends: no status code
    await ws.until(() => ws.closed, 15_000).catch(() => undefined);
    expect(ws.closed).toBe(true);
    expect(ws.closeCode).not.toBe(1006);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("logs a flood of malformed frames as one sampled warning, never an error per frame", async () => {
    const errors = vi.spyOn(console, "error");
    const warnings = vi.spyOn(console, "warn");
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    // Besides junk: the `agents` library's own RPC and client-state frames, which it would
    // otherwise answer itself (an error line per refused call, a client-written state).
    const junk = [
      "{not json",
      JSON.stringify({ type: "nope" }),
      JSON.stringify({ type: "rpc", id: "1", method: "wipe", args: [] }),
      JSON.stringify({ type: "cf_agent_state", state: { owned: true } }),
      // The same with the type written in escapes, as JSON allows.
      '{"type":"\\u0072pc","id":"2","method":"wipe","args":[]}',
      '{"type":"cf\\u005fagent_state","state":{"owned":true}}',
    ];
    for (let i = 0; i < 40; i++) ws.send(junk[i % junk.length]!);
    await ws.until((f) => f.filter((x) => x.type === "frame_error").length === 40);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings.mock.calls.length).toBeLessThanOrEqual(1);
    ws.close();
  });

  it("deleting a conversation with open sockets closes them with 4404 and logs no error", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const sockets = await Promise.all([1, 2, 3].map(() => TestSocket.open(user, conv.id)));
    for (const ws of sockets) {
      ws.send({ type: "resume", lastSeq: 0 });
      await ws.until((f) => f.some((x) => x.type === "synced"));
    }
    const errors = vi.spyOn(console, "error");
    expect((await api(user, `/api/conversations/${conv.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    for (const ws of sockets) await ws.until(() => ws.closed).catch(() => undefined);
    expect(sockets.map((ws) => ws.closeCode)).toEqual([4404, 4404, 4404]);
    await new Promise((r) => setTimeout(r, 300));
    expect(errors).not.toHaveBeenCalled();
  });
});
