import { env, listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CreatedConversation } from "../../../../durable-objects/protocol/rest";
import { api, createUser } from "../../../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../../../tests/support/ws-client";
import { exports } from "cloudflare:workers";

async function create(user: Awaited<ReturnType<typeof createUser>>) {
  const res = await api(user, "/api/conversations", { method: "POST", json: {} });
  expect(res.status).toBe(201);
  return CreatedConversation.parse(await res.json());
}

describe("a new conversation's first socket", () => {
  it("the create answer carries a ticket that opens the socket once, and a turn runs on it", async () => {
    const user = await createUser();
    const conv = await create(user);
    const ws = await TestSocket.openWith(
      conv.id,
      {},
      `?ticket=${encodeURIComponent(conv.socket.ticket)}`,
    );
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((f) => f.some((x) => x.type === "synced"));
    ws.send({ type: "send", clientMessageId: "first", text: "hello there" });
    await ws.until(turnEnded);
    expect(ws.frames.some((f) => f.type === "turn_ended")).toBe(true);
    ws.close();
    // Single-use, like a ticket from POST /ws-ticket.
    const again = await exports.default.fetch(
      `http://app.test/api/conversations/${conv.id}/ws?ticket=${encodeURIComponent(conv.socket.ticket)}`,
      { headers: { upgrade: "websocket" } },
    );
    expect(again.status).toBe(401);
  });

  it("the ticket opens only its own conversation", async () => {
    const user = await createUser();
    const first = await create(user);
    const second = await create(user);
    const res = await exports.default.fetch(
      `http://app.test/api/conversations/${second.id}/ws?ticket=${encodeURIComponent(first.socket.ticket)}`,
      { headers: { upgrade: "websocket" } },
    );
    expect(res.status).toBe(401);
  });

  it("the conversation's object is started before any socket or message reaches it", async () => {
    const user = await createUser();
    const conv = await create(user);
    const id = env.CONVERSATION.idFromName(conv.id).toString();
    const deadline = Date.now() + 10_000;
    let started = false;
    while (!started && Date.now() < deadline) {
      started = (await listDurableObjectIds(env.CONVERSATION)).some((x) => x.toString() === id);
      if (!started) await new Promise((r) => setTimeout(r, 50));
    }
    expect(started).toBe(true);
  });
});
