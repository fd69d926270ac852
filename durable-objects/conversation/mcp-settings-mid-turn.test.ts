// Settings changed while a turn runs: the turn's next call follows them. The first step's call
// to the changing server's `hold_step` waits until the test releases it (a slow tool); the test
// changes Settings meanwhile, and the model's second step calls the same server again.
import { expect, inject, it } from "vitest";
import type { ChangingServerState } from "../../tests/support/changing-server";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { TestSocket } from "../../tests/support/ws-client";

const SERVER = "changing-hold";

function holdChannel() {
  const base = inject("changingUrl").replace(/\/mcp$/, `/hold-${crypto.randomUUID().slice(0, 8)}`);
  return {
    url: `${base}/mcp`,
    state: async () => (await (await fetch(`${base}/state`)).json()) as ChangingServerState,
    release: () => fetch(`${base}/release`, { method: "POST" }),
  };
}

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string) {
  const deadline = Date.now() + 15_000;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) throw new Error(`${what}; last seen ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/**
 * Runs "hold two steps please" with the user's server `changing-hold`, calls `change` while the
 * first step's call is held, then lets it go; returns the turn's tool results and what the
 * server saw.
 */
async function turnWithChange(
  headers: Record<string, string>,
  change: (user: TestUser, serverId: string) => Promise<Response>,
) {
  const ch = holdChannel();
  const user = await createUser();
  const created = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: SERVER, url: ch.url, headers },
  });
  expect(created.status).toBe(201);
  const { id: serverId } = (await created.json()) as { id: string };
  const conv = await createConversation(user);
  const ws = await TestSocket.openSynced(user, conv.id);
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "hold two steps please" });
  await waitFor(ch.state, (s) => s.holdCalls.length === 1, "the first step's call never started");
  const changed = await change(user, serverId);
  expect(changed.status).toBeLessThan(300);
  await ch.release();
  await ws.until((f) => f.some((x) => x.type === "turn_ended"), 30_000);
  ws.close();
  return {
    results: ws.events().filter((e) => e.type === "tool_result"),
    server: await ch.state(),
  };
}

it("a server removed in Settings mid-turn is not called again in that turn, and both the model and the user are told why", async () => {
  const { results, server } = await turnWithChange({}, (user, id) =>
    api(user, `/api/mcp-servers/${id}`, { method: "DELETE" }),
  );
  // The call under way when the change landed finished; the next one never reached the server.
  expect(server.holdCalls.map((c) => c.n)).toEqual([1]);
  expect(results).toEqual([
    expect.objectContaining({ isError: false, summary: expect.stringContaining("hold_step 1") }),
    expect.objectContaining({
      isError: true,
      summary: `${SERVER}: not called, the server '${SERVER}' was removed or switched off in Settings during this turn.`,
    }),
  ]);
}, 60_000);

it("a server switched off in Settings mid-turn is not called again in that turn", async () => {
  const { results, server } = await turnWithChange({}, (user, id) =>
    api(user, `/api/mcp-servers/${id}`, { method: "PATCH", json: { enabled: false } }),
  );
  expect(server.holdCalls.map((c) => c.n)).toEqual([1]);
  expect(results.at(-1)).toMatchObject({
    isError: true,
    summary: expect.stringContaining("switched off in Settings during this turn"),
  });
}, 60_000);

it("a server given new headers in Settings mid-turn (a revoked key replaced) gets the next call with the new ones", async () => {
  const { results, server } = await turnWithChange(
    { authorization: "Bearer old-key" },
    (user, id) =>
      api(user, `/api/mcp-servers/${id}`, {
        method: "PATCH",
        json: { headers: { authorization: "Bearer new-key" } },
      }),
  );
  expect(server.holdCalls).toEqual([
    { n: 1, authorization: "Bearer old-key" },
    { n: 2, authorization: "Bearer new-key" },
  ]);
  expect(results.map((r) => r.type === "tool_result" && r.isError)).toEqual([false, false]);
}, 60_000);

it("a tool switched to 'never' in Settings mid-turn is not called again in that turn", async () => {
  const { results, server } = await turnWithChange({}, (user) =>
    api(user, "/api/tool-policies", {
      method: "PUT",
      json: { server: SERVER, tool: "hold_step", policy: "never" },
    }),
  );
  expect(server.holdCalls.map((c) => c.n)).toEqual([1]);
  expect(results.at(-1)).toMatchObject({
    isError: true,
    summary: "not allowed by the user's tool policy",
  });
}, 60_000);

it("a server given new headers between turns gets the next turn's calls with the new ones, not the old connection's", async () => {
  const base = inject("changingUrl").replace(/\/mcp$/, `/${crypto.randomUUID().slice(0, 8)}`);
  const state = async () => (await (await fetch(`${base}/state`)).json()) as ChangingServerState;
  const user = await createUser();
  const created = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "changing", url: `${base}/mcp`, headers: { authorization: "Bearer old-key" } },
  });
  const { id } = (await created.json()) as { id: string };
  const conv = await createConversation(user);
  const turn = async (text: string) => {
    const ws = await TestSocket.openSynced(user, conv.id);
    const before = ws.events().filter((e) => e.type === "turn_ended").length;
    ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
    await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === before + 1, 30_000);
    ws.close();
    return ws
      .events()
      .filter((e) => e.type === "tool_result")
      .at(-1);
  };
  expect(await turn("add a tool please")).toMatchObject({ isError: false });
  const seenBefore = (await state()).credentials.length;
  const edited = await api(user, `/api/mcp-servers/${id}`, {
    method: "PATCH",
    json: { headers: { authorization: "Bearer new-key" } },
  });
  expect(edited.status).toBe(200);
  expect(await turn("use the new tool")).toMatchObject({ isError: false });
  const sent = (await state()).credentials.slice(seenBefore);
  expect(sent.length).toBeGreaterThan(0);
  expect(new Set(sent)).toEqual(new Set(["Bearer new-key"]));
}, 60_000);

it("a server re-pointed to a new URL in Settings mid-turn gets the next call there, not at the old address", async () => {
  const moved = holdChannel();
  await moved.release();
  const { results, server } = await turnWithChange({}, (user, id) =>
    api(user, `/api/mcp-servers/${id}`, { method: "PATCH", json: { url: moved.url } }),
  );
  expect(server.holdCalls.map((c) => c.n)).toEqual([1]);
  expect((await moved.state()).holdCalls.map((c) => c.n)).toEqual([2]);
  expect(results.map((r) => r.type === "tool_result" && r.isError)).toEqual([false, false]);
}, 60_000);
