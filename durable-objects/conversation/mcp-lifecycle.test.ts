// MCP sessions over a conversation's life: restarts, idle time, a removed server, deletion.
// Each test has its own channel of the changing server (see tests/support/changing-server.ts),
// which reports what it saw: standing GET streams open, sessions ended, credentials received.
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { expect, inject, it } from "vitest";
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
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((f) => f.some((x) => x.type === "synced"));
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

async function setUp() {
  const ch = channel();
  const user = await createUser();
  const created = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "changing", url: ch.url },
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

it("a conversation nobody uses closes its standing streams, and its next turn resumes the session", async () => {
  const { ch, user, conv } = await setUp();
  await waitFor(ch.state, (s) => s.standingStreams === 1, "no standing stream after the handshake");
  const initialized = await runInDurableObject(stubOf(conv.id), (i: Conversation) => {
    // As if MCP_IDLE_CLOSE_MS were 300 for this object.
    (i as unknown as { env: { MCP_IDLE_CLOSE_MS?: string } }).env.MCP_IDLE_CLOSE_MS = "300";
    return i.mcpCounters.initialize;
  });
  await turn(user, conv.id, "hello again");
  await waitFor(ch.state, (s) => s.standingStreams === 0, "the idle stream stays open");

  await turn(user, conv.id, "and once more");
  expect(
    await runInDurableObject(stubOf(conv.id), (i: Conversation) => i.mcpCounters.initialize),
  ).toBe(initialized);
  await waitFor(ch.state, (s) => s.standingStreams === 0, "the idle stream stays open");
}, 60_000);
