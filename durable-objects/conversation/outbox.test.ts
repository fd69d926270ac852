import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createConversation, createUser } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { Conversation } from "./conversation";
import { enqueue } from "./outbox";
import { flushOutbox } from "./outbox-flush";

// A real D1 failure: the table the outbox writes to is gone, then comes back.
const breakMessages = () => env.DB.exec("ALTER TABLE messages RENAME TO messages_unavailable");
const repairMessages = () => env.DB.exec("ALTER TABLE messages_unavailable RENAME TO messages");

async function d1Messages(conversationId: string) {
  const rows = await env.DB.prepare(
    "SELECT id, role, status FROM messages WHERE conversation_id = ? ORDER BY seq",
  )
    .bind(conversationId)
    .all();
  return rows.results;
}

describe("outbox to D1", () => {
  it("keeps every message while D1 writes fail and lands each exactly once after recovery", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    await breakMessages();
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "o1", text: "hello during an outage" });
    await ws.until(turnEnded);
    ws.send({ type: "send", clientMessageId: "o2", text: "hello again" });
    await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 2);
    ws.close();

    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    const pending = await runInDurableObject(stub, (instance: Conversation) =>
      instance.store.outboxSize(),
    );
    expect(pending).toBeGreaterThanOrEqual(4); // two user + two assistant messages, plus touches and usage

    await repairMessages();
    // The retry comes from the object's alarm.
    await runDurableObjectAlarm(stub);
    await runInDurableObject(stub, (instance: Conversation) => instance.flushOutboxTask());
    const rows = await d1Messages(conv.id);
    expect(rows.map((r) => r.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(4);
    expect(
      await runInDurableObject(stub, (instance: Conversation) => instance.store.outboxSize()),
    ).toBe(0);
  });

  it("a flush that is repeated after a partial failure does not duplicate rows", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    await runInDurableObject(stub, async (instance: Conversation) => {
      const message = {
        id: "m-1",
        role: "user" as const,
        content: [{ type: "text" as const, text: "hi" }],
        status: "complete" as const,
        seq: 1,
        clientMessageId: "c-1",
        createdAt: Date.now(),
      };
      enqueue(instance.store, { kind: "message", conversationId: conv.id, message });
      expect((await flushOutbox(instance.store, env.DB)).flushed).toBe(1);
      // The same row again, as after a crash between the D1 write and the outbox delete.
      enqueue(instance.store, {
        kind: "message",
        conversationId: conv.id,
        message: { ...message, status: "complete" },
      });
      await breakMessages();
      const failed = await flushOutbox(instance.store, env.DB);
      expect(failed.remaining).toBe(1);
      expect(failed.error).toMatch(/messages/);
      await repairMessages();
      expect((await flushOutbox(instance.store, env.DB)).remaining).toBe(0);
    });
    expect(await d1Messages(conv.id)).toHaveLength(1);
  });
});
