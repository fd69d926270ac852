// Signing out, revoking a token and "sign out everywhere" end access at once: the old cookie
// fails on the next request and open WebSockets close.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";
import { TestSocket } from "../../../../tests/support/ws-client";

const ORIGIN = { origin: "http://app.test" };

async function signIn(user: TestUser): Promise<string> {
  const res = await api(null, "/api/session", { method: "POST", json: { token: user.token } });
  expect(res.status).toBe(200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0]!;
}

const withCookie = (cookie: string, path: string, init: RequestInit = {}) =>
  api(null, path, { ...init, headers: { cookie, ...ORIGIN, ...init.headers } });

async function tokenIdOf(user: TestUser): Promise<string> {
  const list = (await (await api(user, "/api/tokens")).json()) as {
    items: Array<{ id: string; current: boolean }>;
  };
  return list.items.find((t) => t.current)!.id;
}

/** A socket opened with the cookie, synced; `ping` proves it still answers. */
async function liveSocket(cookie: string, conversationId: string): Promise<TestSocket> {
  const ws = await TestSocket.openWith(conversationId, { cookie, ...ORIGIN });
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  return ws;
}

async function expectClosedOnNextFrame(ws: TestSocket): Promise<void> {
  ws.send({ type: "ping" });
  await ws.until(() => ws.closed).catch(() => undefined);
  expect(ws.closed).toBe(true);
  expect(ws.closeCode).toBe(4401);
  expect(ws.frames.some((f) => f.type === "pong")).toBe(false);
}

describe("revoking access", () => {
  it("sign-out ends the session: the old cookie gets 401 and its open socket closes", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const cookie = await signIn(user);
    expect((await withCookie(cookie, "/api/conversations")).status).toBe(200);
    const ws = await liveSocket(cookie, conv.id);

    expect((await withCookie(cookie, "/api/session", { method: "DELETE" })).status).toBe(204);

    expect((await withCookie(cookie, "/api/conversations")).status).toBe(401);
    expect((await withCookie(cookie, "/api/session")).status).toBe(401);
    await expectClosedOnNextFrame(ws);
    // The token itself still works: signing out of a browser is not revoking a token.
    expect((await api(user, "/api/conversations")).status).toBe(200);
  });

  it("revoking a token (API or a row deleted from the command line) ends its sessions and sockets", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const cookie = await signIn(user);
    const ws = await liveSocket(cookie, conv.id);
    const bearerSocket = await TestSocket.openSynced(user, conv.id);
    const id = await tokenIdOf(user);

    expect((await withCookie(cookie, `/api/tokens/${id}`, { method: "DELETE" })).status).toBe(204);

    expect((await withCookie(cookie, "/api/conversations")).status).toBe(401);
    expect((await api(user, "/api/conversations")).status).toBe(401);
    await expectClosedOnNextFrame(ws);
    await expectClosedOnNextFrame(bearerSocket);

    // The operator's way: delete the token row in D1 directly (what token:revoke does).
    const other = await createUser();
    const otherCookie = await signIn(other);
    await env.DB.prepare("DELETE FROM api_tokens WHERE user_id = ?").bind(other.id).run();
    expect((await withCookie(otherCookie, "/api/conversations")).status).toBe(401);
  });

  it("sign out everywhere ends every session of the user, and their sockets; tokens keep working", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const laptop = await signIn(user);
    const phone = await signIn(user);
    const phoneSocket = await liveSocket(phone, conv.id);
    const sessions = (await (await withCookie(laptop, "/api/sessions")).json()) as {
      items: Array<{ current: boolean }>;
    };
    expect(sessions.items.map((s) => s.current).sort()).toEqual([false, true]);

    expect((await withCookie(laptop, "/api/sessions", { method: "DELETE" })).status).toBe(204);

    expect((await withCookie(laptop, "/api/conversations")).status).toBe(401);
    expect((await withCookie(phone, "/api/conversations")).status).toBe(401);
    await expectClosedOnNextFrame(phoneSocket);
    expect((await api(user, "/api/conversations")).status).toBe(200);
  });

  it("a socket that only listens is closed while a reply streams to it", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const cookie = await signIn(user);
    const listener = await liveSocket(cookie, conv.id);
    const writer = await TestSocket.open(user, conv.id);
    writer.send({ type: "resume", lastSeq: 0 });
    await withCookie(cookie, "/api/session", { method: "DELETE" });
    writer.send({ type: "send", clientMessageId: "slow-1", text: "a long answer please" });
    await listener.until(() => listener.closed).catch(() => undefined);
    expect(listener.closeCode).toBe(4401);
    writer.close();
  });

  it("another user's token cannot be revoked (404), and the listing never shows a secret", async () => {
    const alice = await createUser();
    const bob = await createUser();
    const bobToken = await tokenIdOf(bob);
    expect((await api(alice, `/api/tokens/${bobToken}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(bob, "/api/conversations")).status).toBe(200);
    const text = await (await api(alice, "/api/tokens")).text();
    expect(text).not.toContain(alice.token);
    expect(text).not.toMatch(/hash/i);
  });
});

describe("token bookkeeping", () => {
  it("writes last_used_at on use, at most once a minute", async () => {
    const user = await createUser();
    const id = await tokenIdOf(user);
    const first = await env.DB.prepare("SELECT last_used_at AS t FROM api_tokens WHERE id = ?")
      .bind(id)
      .first<number>("t");
    expect(first).toBeGreaterThan(Date.now() - 10_000);
    // Pretend that use was 30 s ago: another request within the minute writes nothing.
    await env.DB.prepare("UPDATE api_tokens SET last_used_at = ? WHERE id = ?")
      .bind(Date.now() - 30_000, id)
      .run();
    await api(user, "/api/conversations");
    const within = await env.DB.prepare("SELECT last_used_at AS t FROM api_tokens WHERE id = ?")
      .bind(id)
      .first<number>("t");
    expect(Date.now() - within!).toBeGreaterThanOrEqual(30_000);
    // Two minutes ago: the next request records the use.
    await env.DB.prepare("UPDATE api_tokens SET last_used_at = ? WHERE id = ?")
      .bind(Date.now() - 120_000, id)
      .run();
    await api(user, "/api/conversations");
    const later = await env.DB.prepare("SELECT last_used_at AS t FROM api_tokens WHERE id = ?")
      .bind(id)
      .first<number>("t");
    expect(Date.now() - later!).toBeLessThan(10_000);
  });

  it("an expired token stops working, and so does the session it opened", async () => {
    const user = await createUser();
    const cookie = await signIn(user);
    const id = await tokenIdOf(user);
    await env.DB.prepare("UPDATE api_tokens SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    expect((await api(user, "/api/conversations")).status).toBe(401);
    expect((await withCookie(cookie, "/api/conversations")).status).toBe(401);
  });
});
