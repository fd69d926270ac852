import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { api, createConversation, createUser, insertArtifact } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";

it("deleting a conversation leaves no row, R2 object or Durable Object storage behind", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "d1", text: "hello" });
  await ws.until(turnEnded);
  const key = `conversations/${conv.id}/artifacts/a.png`;
  await env.ARTIFACTS.put(key, new Uint8Array([1, 2, 3]));
  await insertArtifact(conv.id, {
    type: "image/png",
    r2Key: key,
    content: null,
    contentType: "image/png",
  });
  // Wait for the outbox so there is something in D1 to delete.
  for (let i = 0; i < 50; i++) {
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?")
      .bind(conv.id)
      .first<number>("n");
    if (n === 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  const res = await api(user, `/api/conversations/${conv.id}`, { method: "DELETE" });
  expect(res.status).toBe(204);
  await ws.until(() => ws.closed).catch(() => undefined);

  for (const table of ["conversations", "messages", "artifacts"]) {
    const column = table === "conversations" ? "id" : "conversation_id";
    const n = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`)
      .bind(conv.id)
      .first<number>("n");
    expect(n, table).toBe(0);
  }
  expect((await env.ARTIFACTS.list({ prefix: `conversations/${conv.id}/` })).objects).toHaveLength(
    0,
  );
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
  const ours = await runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'conv_%'",
      )
      .toArray()
      .map((r) => r.name),
  );
  expect(ours).toEqual([]);
  expect((await api(user, `/api/conversations/${conv.id}`)).status).toBe(404);
});
