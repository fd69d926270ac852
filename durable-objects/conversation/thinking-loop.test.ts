import { env, runInDurableObject } from "cloudflare:test";
import type { Conversation } from "./conversation";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import {
  api,
  createConversation,
  createUser,
  createUserWithEverything,
  type TestUser,
} from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import { ConversationStore } from "./store";

let user: TestUser;
beforeAll(async () => {
  user = await createUserWithEverything();
});

async function turn(text: string, settings: Record<string, unknown> = {}) {
  const conv = await createConversation(user, { settings });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return { conv, events: ws.events() };
}

const types = (events: ServerEvent[]) =>
  events
    .map((e) => e.type)
    .filter(
      (t) =>
        t !== "text_delta" && t !== "reasoning_delta" && t !== "notice" && t !== "usage_updated",
    );

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (ok(v) || i > 60) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the thinking loop with a third-party MCP server over streamable HTTP", () => {
  it("runs three steps: one tool, two tools at once, then the formatter; message and artifacts land in D1 and R2", async () => {
    const { conv, events } = await turn("three step question");
    const order = types(events);
    expect(order.slice(0, 5)).toEqual([
      "user_message",
      "turn_started",
      "step_started",
      "tool_call",
      "tool_result",
    ]);
    expect(
      events
        .filter((e) => e.type === "step_started")
        .map((e) => e.type === "step_started" && [e.step, e.maxSteps]),
    ).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
    ]);
    const calls = events.flatMap((e) =>
      e.type === "tool_call" ? [[e.step, e.server, e.tool]] : [],
    );
    expect(calls).toEqual([
      [1, "everything", "echo"],
      [2, "everything", "get-tiny-image"],
      [2, "everything", "get-structured-content"],
    ]);
    expect(order.slice(-2)).toEqual(["message_completed", "turn_ended"]);

    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content.filter((p) => p.type === "text")).toEqual([
      { type: "text", text: "Here is what the tools found." },
    ]);
    expect(answer.content.find((p) => p.type === "reasoning")).toMatchObject({
      text: expect.stringContaining("Used three tools."),
    });
    const artifacts = answer.content.flatMap((p) =>
      p.type === "artifact" ? [[p.artifactType, p.title]] : [],
    );
    expect(artifacts).toEqual(
      expect.arrayContaining([
        ["application/vnd.ant.code", "Example snippet"],
        ["image/png", "Image from get-tiny-image"],
        ["application/json", "Data from get-structured-content"],
      ]),
    );

    const rows = await eventually(
      () =>
        env.DB.prepare(
          "SELECT type, title, r2_key, message_id, metadata FROM artifacts WHERE conversation_id = ?",
        )
          .bind(conv.id)
          .all(),
      (r) => r.results.length === 3 && r.results.every((a) => a.message_id === answer.id),
    );
    expect(rows.results.every((a) => a.message_id === answer.id)).toBe(true);
    const image = rows.results.find((a) => a.type === "image/png")!;
    const object = await env.ARTIFACTS.get(String(image.r2_key));
    expect(new Uint8Array(await object!.arrayBuffer()).slice(1, 4)).toEqual(
      new TextEncoder().encode("PNG"),
    );
    expect(JSON.parse(String(image.metadata)).source).toMatchObject({
      server: "everything",
      tool: "get-tiny-image",
      step: 2,
      origin: "tool",
    });
    const code = rows.results.find((a) => a.type === "application/vnd.ant.code")!;
    expect(JSON.parse(String(code.metadata)).source).toMatchObject({
      origin: "formatter",
      step: 3,
    });
  });

  it("keeps the text the model streamed before its tool calls in the completed answer, where it was shown", async () => {
    const { events } = await turn("explain then look up");
    const live = fold(
      events.slice(
        0,
        events.findIndex((e) => e.type === "message_completed"),
      ),
    );
    const shown = live.messages[1]!.content.map((p) => p.type);
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content.map((p) => (p.type === "text" ? p.text : p.type))).toEqual([
      "reasoning",
      "Let me look that up first.",
      "tool_call",
      "Found it.",
    ]);
    // Before the answer arrived the user saw the same text, then the call, in that order.
    expect(shown).toEqual(["text", "tool_call"]);
  });

  it("forwards progress notifications of a long tool to the client", async () => {
    const { events } = await turn("long operation please");
    const progress = events.filter((e) => e.type === "tool_progress");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.type === "tool_progress" && p.progress)).toEqual(
      [...progress.map((p) => p.type === "tool_progress" && p.progress)].sort(),
    );
    expect(fold(events).messages[1]?.content.at(-1)).toEqual({
      type: "text",
      text: "The long operation finished.",
    });
  });

  it("sends an isError result back to the model, which still answers", async () => {
    const { events } = await turn("broken echo please");
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ isError: true });
    expect(fold(events).messages[1]?.content.at(-1)).toEqual({
      type: "text",
      text: "The echo tool refused: it needs a message.",
    });
  });

  it("reuses a repeated call instead of running it again, and stops after two steps without progress", async () => {
    const { events } = await turn("repeat yourself");
    const parts = fold(events).messages[1]!.content.filter((p) => p.type === "tool_call");
    expect(parts).toHaveLength(3);
    expect(
      parts
        .slice(1)
        .every((p) => p.type === "tool_call" && p.summary?.startsWith("reused the earlier result")),
    ).toBe(true);
    expect(events.filter((e) => e.type === "step_started")).toHaveLength(3);
    expect(fold(events).messages[1]?.status).toBe("complete");
  });

  it("does not reuse a failed call: the model's retry of it runs again", async () => {
    const { events } = await turn("retry the broken echo");
    const results = events.flatMap((e) =>
      e.type === "tool_result" ? [[e.callId, e.isError, e.summary.startsWith("reused")]] : [],
    );
    expect(results).toEqual([
      ["e2", true, false],
      ["e3", true, false],
    ]);
    expect(fold(events).messages[1]?.content.at(-1)).toEqual({
      type: "text",
      text: "Retried; the echo still refuses.",
    });
  });

  it("a blocked server's tools are not offered, and a step cap of 1 ends the loop", async () => {
    const { events } = await turn("three step question", { blockedServers: ["everything"] });
    expect(events.some((e) => e.type === "tool_call" && e.server === "everything")).toBe(false);
    const capped = await turn("three step question", { maxSteps: 1 });
    expect(capped.events.filter((e) => e.type === "step_started")).toHaveLength(1);
    expect(fold(capped.events).messages[1]?.status).toBe("complete");
  });

  it("a follow-up turn reads its history's earlier tool results in one statement, not one per call", async () => {
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "tools", text: "three step question" });
    await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 1, 30_000);
    const earlier = fold(ws.events()).messages[1]!.content.flatMap((p) =>
      p.type === "tool_call" ? [p.callId] : [],
    );
    expect(earlier.length).toBeGreaterThanOrEqual(3);

    const one = vi.spyOn(ConversationStore.prototype, "toolCall");
    const all = vi.spyOn(ConversationStore.prototype, "toolResults");
    try {
      ws.send({ type: "send", clientMessageId: "after", text: "hello there" });
      await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 2, 30_000);
      expect(fold(ws.events()).messages[3]?.status).toBe("complete");
      // Every earlier call in one read, each found; none looked up by itself.
      expect(all).toHaveBeenCalledTimes(1);
      expect(all.mock.calls[0]?.[0]).toEqual(earlier);
      expect(all.mock.results[0]?.value).toHaveProperty("size", earlier.length);
      expect(one.mock.calls.filter(([, id]) => earlier.includes(id))).toEqual([]);
    } finally {
      one.mockRestore();
      all.mockRestore();
    }
    ws.close();
  });

  it("a turn after the first sends no initialize and no tools/list, and makes one model call per step", async () => {
    // A user of its own: another conversation's catalog would spare even the first turn's.
    const user = await createUser();
    const server = { name: "everything", url: inject("everythingUrl") };
    expect((await api(user, "/api/mcp-servers", { method: "POST", json: server })).status).toBe(
      201,
    );
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    const counters = () => runInDurableObject(stub, (i: Conversation) => ({ ...i.mcpCounters }));
    ws.send({ type: "send", clientMessageId: "first", text: "long operation please" });
    await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 1, 30_000);
    const afterFirst = await counters();
    expect(afterFirst.initialize).toBeGreaterThanOrEqual(1);
    expect(afterFirst.toolsList).toBeGreaterThanOrEqual(1);
    ws.send({ type: "send", clientMessageId: "second", text: "broken echo please" });
    await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 2, 30_000);
    expect(await counters()).toEqual(afterFirst);
    ws.close();
  });
});
