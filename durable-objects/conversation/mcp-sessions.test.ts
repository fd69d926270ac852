import { env, runInDurableObject } from "cloudflare:test";
import { inject } from "vitest";
import { expect, it } from "vitest";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnInNewConversation } from "../../tests/support/ws-client";
import type { Conversation } from "./conversation";

it("a session the server forgot (404) is initialised again and the call still goes through", async () => {
  const user = await createUser();
  const url = inject("everythingUrl");
  await api(user, "/api/mcp-servers", { method: "POST", json: { name: "everything", url } });
  const conv = await createConversation(user);
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "s1", text: "long operation please" });
  await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 1, 30_000);

  // The session id is kept in the object's storage (it outlives the instance); end it on the server.
  const sessionId = await runInDurableObject(stub, (i: Conversation) => {
    const cached = i.store.getMeta(`mcp:everything:${url}`);
    return cached ? (JSON.parse(cached) as { sessionId?: string }).sessionId : undefined;
  });
  expect(sessionId).toMatch(/.+/);
  const ended = await fetch(url, {
    method: "DELETE",
    headers: { "mcp-session-id": sessionId!, "mcp-protocol-version": "2025-11-25" },
  });
  expect(ended.status).toBeLessThan(300);
  const before = await runInDurableObject(stub, (i: Conversation) => i.mcpCounters.initialize);

  ws.send({ type: "send", clientMessageId: "s2", text: "echo after the reset" });
  await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 2, 30_000);
  ws.close();
  const results = ws.events().filter((e) => e.type === "tool_result");
  // The echo call reached the server (its echo came back), through a new session.
  expect(results.at(-1)).toMatchObject({
    isError: false,
    summary: expect.stringContaining("Echo: after the reset"),
  });
  expect(await runInDurableObject(stub, (i: Conversation) => i.mcpCounters.initialize)).toBe(
    before + 1,
  );
  const after = await runInDurableObject(
    stub,
    (i: Conversation) =>
      JSON.parse(i.store.getMeta(`mcp:everything:${url}`) ?? "{}") as { sessionId?: string },
  );
  expect(after.sessionId).not.toBe(sessionId);
});

it("a server's tools/list_changed has its tool list read again once, before the turn's next step, and its new tool is offered", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "changing", url: inject("changingUrl") },
  });
  const conv = await createConversation(user);
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "c1", text: "add a tool please" });
  await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 1, 30_000);
  const listed = await runInDurableObject(stub, (i: Conversation) => i.mcpCounters.toolsList);
  // Once as the turn began, once after the call that changed it.
  expect(listed).toBe(2);

  ws.send({ type: "send", clientMessageId: "c2", text: "use the new tool" });
  await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 2, 30_000);
  ws.close();
  const results = ws.events().filter((e) => e.type === "tool_result");
  expect(results.map((r) => [r.isError, r.summary])).toEqual([
    [false, expect.stringContaining("new_tool was added")],
    [false, expect.stringContaining("new_tool ran")],
  ]);
  // The next turn has the new list already.
  expect(await runInDurableObject(stub, (i: Conversation) => i.mcpCounters.toolsList)).toBe(listed);
});

it("a tool a call adds (tools/list_changed) can be used in the same turn, at its next step", async () => {
  const user = await createUser();
  // A channel of its own: the tool is added on this one only.
  const channel = crypto.randomUUID().slice(0, 8);
  const url = inject("changingUrl").replace(/\/mcp$/, `/${channel}/mcp`);
  await api(user, "/api/mcp-servers", { method: "POST", json: { name: "changing", url } });
  const events = await turnInNewConversation(user, "add and use a tool please");
  const results = events.filter((e) => e.type === "tool_result");
  expect(results.map((r) => [r.callId, r.isError, r.summary])).toEqual([
    ["lu1", false, "new_tool was added"],
    ["lu2", false, "new_tool ran"],
  ]);
  // The second step's timings show the listing it waited for.
  const second = events.find((e) => e.type === "step_timings" && e.timings.step === 2);
  expect(second).toMatchObject({ timings: { catalogMs: expect.any(Number) } });
  expect(fold(events).messages[1]).toMatchObject({
    status: "complete",
    content: expect.arrayContaining([{ type: "text", text: "Used the tool it just added." }]),
  });
});
