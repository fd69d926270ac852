// MCP sessions over a conversation's life: restarts, idle time, eviction, a removed server,
// deletion, and the catalog new conversations share.
// Each test has its own channel of the changing server (see tests/support/changing-server.ts),
// which reports what it saw: standing GET streams open, sessions ended, credentials received.
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { afterEach, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import type { ChangingServerState } from "../../tests/support/changing-server";
import { TestSocket } from "../../tests/support/ws-client";
import type { Conversation } from "./conversation";

function channel() {
  const name = crypto.randomUUID().slice(0, 8);
  const base = inject("changingUrl").replace(/\/mcp$/, `/${name}`);
  return {
    url: `${base}/mcp`,
    state: async () => (await (await fetch(`${base}/state`)).json()) as ChangingServerState,
    addTool: () => fetch(`${base}/add-tool`, { method: "POST" }),
  };
}

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string) {
  const deadline = Date.now() + 8_000;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) throw new Error(`${what}; last seen ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

/** Opens a socket, catches up, runs one turn and returns the socket and how many turns ended. */
async function turn(user: TestUser, conversationId: string, text: string) {
  const ws = await TestSocket.openSynced(user, conversationId);
  const before = ws.events().filter((e) => e.type === "turn_ended").length;
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === before + 1, 30_000);
  ws.close();
  return ws.events();
}

const stubOf = (id: string) => env.CONVERSATION.get(env.CONVERSATION.idFromName(id));

async function storedSession(conversationId: string, url: string) {
  return runInDurableObject(stubOf(conversationId), (i: Conversation) => {
    const raw = i.store.getMeta(`mcp:changing:${url}`);
    return raw ? (JSON.parse(raw) as { sessionId?: string; tools: unknown[] | null }) : null;
  });
}

async function setUp(headers: Record<string, string> = {}) {
  const ch = channel();
  const user = await createUser();
  const created = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "changing", url: ch.url, headers },
  });
  const { id: serverId } = (await created.json()) as { id: string };
  const conv = await createConversation(user);
  await turn(user, conv.id, "hello");
  const session = await storedSession(conv.id, ch.url);
  expect(session?.sessionId).toMatch(/.+/);
  return { ch, user, conv, serverId, sessionId: session!.sessionId! };
}

it("after a restart the resumed session reopens its standing stream: tools/list_changed sent then reaches the next turn", async () => {
  const { ch, user, conv } = await setUp();
  await abortAllDurableObjects();
  await waitFor(ch.state, (s) => s.standingStreams === 0, "the old stream stays open");

  // The next turn resumes the stored session (no new handshake).
  await turn(user, conv.id, "hello again");
  await waitFor(ch.state, (s) => s.standingStreams === 1, "no standing stream after the restart");

  // The server changes its tools outside any request: only the standing stream carries that.
  await ch.addTool();
  await waitFor(
    () => storedSession(conv.id, ch.url),
    (s) => s?.tools === null,
    "the tool list was not marked stale",
  );
  const events = await turn(user, conv.id, "use the new tool");
  expect(events.filter((e) => e.type === "tool_result").at(-1)).toMatchObject({
    isError: false,
    summary: expect.stringContaining("new_tool ran"),
  });
}, 60_000);

it("deleting a conversation ends its MCP sessions, even after a restart", async () => {
  const { ch, user, conv, sessionId } = await setUp();
  await abortAllDurableObjects();
  const res = await api(user, `/api/conversations/${conv.id}`, { method: "DELETE" });
  expect(res.status).toBe(204);
  const state = await ch.state();
  expect(state.ended).toEqual([sessionId]);
  expect(state.sessions).not.toContain(sessionId);
}, 60_000);

it("a removed server's session ends at the conversation's next turn", async () => {
  const { ch, user, conv, serverId, sessionId } = await setUp();
  expect((await api(user, `/api/mcp-servers/${serverId}`, { method: "DELETE" })).status).toBe(204);
  await turn(user, conv.id, "hello without it");
  await waitFor(ch.state, (s) => s.ended.includes(sessionId), "the session was not ended");
  expect(await storedSession(conv.id, ch.url)).toBeNull();
}, 60_000);

type IdleEnv = { env: { MCP_IDLE_CLOSE_MS?: string } };

/** As if MCP_IDLE_CLOSE_MS were 300 (the objects of this isolate share one `env`). */
const idleAfter300ms = (conversationId: string) =>
  runInDurableObject(stubOf(conversationId), (i: Conversation) => {
    (i as unknown as IdleEnv).env.MCP_IDLE_CLOSE_MS = "300";
  });

afterEach(() =>
  runInDurableObject(stubOf("idle-reset"), (i: Conversation) => {
    delete (i as unknown as IdleEnv).env.MCP_IDLE_CLOSE_MS;
  }),
);

it("a conversation nobody uses ends its session on the server, and its next turn still works", async () => {
  const { ch, user, conv, sessionId } = await setUp();
  await waitFor(ch.state, (s) => s.standingStreams === 1, "no standing stream after the handshake");
  await idleAfter300ms(conv.id);
  await turn(user, conv.id, "hello again");
  const ended = await waitFor(ch.state, (s) => s.sessions.length === 0, "the session stays open");
  expect(ended.ended).toEqual([sessionId]);
  expect(ended.standingStreams).toBe(0);
  expect(await storedSession(conv.id, ch.url)).toBeNull();

  const events = await turn(user, conv.id, "add a tool please");
  expect(events.filter((e) => e.type === "tool_result").at(-1)).toMatchObject({ isError: false });
}, 60_000);

it("the idle check forgets failure counts of servers gone or edited, and rows of earlier versions", async () => {
  const { ch, user, conv } = await setUp();
  const failureRows = () =>
    runInDurableObject(stubOf(conv.id), (i: Conversation) =>
      i.store.metaWithPrefix("breaker:").map((r) => r.key),
    );
  const stale = [
    "breaker:changing",
    `breaker:changing:${ch.url}`,
    `breaker:changing:${ch.url}:1`,
    "breaker:removed:https://gone.example/mcp:0",
  ];
  await runInDurableObject(stubOf(conv.id), (i: Conversation) => {
    for (const key of stale) i.store.setMeta(key, JSON.stringify({ failures: 2, openedAt: null }));
  });
  await idleAfter300ms(conv.id);
  await turn(user, conv.id, "hello again");
  await waitFor(ch.state, (s) => s.sessions.length === 0, "the session stays open");
  const left = await waitFor(
    failureRows,
    (keys) => !keys.some((k) => stale.includes(k)),
    "old failure rows stay",
  );
  // The configured server's own count stays (and our built-in server's).
  const own = left.filter((k) => k.startsWith("breaker:changing"));
  expect(own).toHaveLength(1);
  expect(own[0]).toMatch(new RegExp(`^breaker:changing:${ch.url.replace(/[.?]/g, "\\$&")}:\\d+$`));
}, 60_000);

it("a conversation's turns keep its one pending idle check instead of replacing it at every turn", async () => {
  const { user, conv } = await setUp();
  const idleChecks = () =>
    runInDurableObject(stubOf(conv.id), async (i: Conversation) =>
      (await i.listSchedules())
        .filter((s) => s.callback === "closeIdleMcpConnections")
        .map((s) => s.id),
    );
  const scheduled = await idleChecks();
  expect(scheduled).toHaveLength(1);
  await turn(user, conv.id, "hello again");
  await turn(user, conv.id, "and again");
  expect(await idleChecks()).toEqual(scheduled);
}, 60_000);

it("a conversation evicted before it went idle still ends its session on the server", async () => {
  const { ch, user, conv, sessionId } = await setUp();
  await idleAfter300ms(conv.id);
  await turn(user, conv.id, "hello again");
  // The instance that held the connection is gone; the idle check it scheduled is not.
  await abortAllDurableObjects();
  const state = await waitFor(ch.state, (s) => s.sessions.length === 0, "the session stays open");
  expect(state.ended).toEqual([sessionId]);
}, 60_000);

it("new conversations of a user share the tool catalog: no session is opened until a tool is called", async () => {
  // A fixed credential: a server the user signs in to with OAuth gets a handshake per conversation.
  const { ch, user } = await setUp({ authorization: "Bearer fixed" });
  const opened = (await ch.state()).sessions.length;
  const conversations = await Promise.all([1, 2, 3].map(() => createConversation(user)));
  for (const c of conversations) await turn(user, c.id, "hello");
  expect((await ch.state()).sessions.length).toBe(opened);
  for (const c of conversations)
    expect(
      await runInDurableObject(stubOf(c.id), (i: Conversation) => ({ ...i.mcpCounters })),
    ).toEqual({ initialize: 0, toolsList: 0 });

  // A call opens the conversation's own session, with the shared catalog's tool.
  const events = await turn(user, conversations[0]!.id, "add a tool please");
  expect(events.filter((e) => e.type === "tool_result").at(-1)).toMatchObject({
    isError: false,
    summary: expect.stringContaining("new_tool was added"),
  });
  expect((await ch.state()).sessions.length).toBe(opened + 1);
}, 60_000);
