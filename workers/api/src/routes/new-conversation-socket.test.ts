import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { Conversation as ConversationObject } from "../../../../durable-objects/conversation/conversation";
import {
  CLOSE_CONVERSATION_GONE,
  CLOSE_CREATE_REFUSED,
} from "../../../../durable-objects/protocol/close-codes";
import { Conversation } from "../../../../durable-objects/protocol/rest";
import type { ErrorInfo } from "../../../../durable-objects/protocol/wire";
import {
  api,
  BASE,
  bearer,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../../../tests/support/ws-client";
import app from "../app";

/**
 * A refused creation as a browser sees it: the socket opens, one frame_error says why, and it
 * closes with its code.
 */
async function refusalOf(res: Response): Promise<{ code: number; error: ErrorInfo }> {
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no socket in the answer");
  const frames: unknown[] = [];
  ws.addEventListener("message", (m) => {
    frames.push(JSON.parse(String(m.data)));
  });
  const code = new Promise<number>((resolve) =>
    ws.addEventListener("close", (e) => resolve(e.code)),
  );
  ws.accept();
  const closedWith = await code;
  expect(frames).toHaveLength(1);
  const frame = frames[0] as { type: string; error: ErrorInfo };
  expect(frame.type).toBe("frame_error");
  return { code: closedWith, error: frame.error };
}

/** The upgrade as a client sends it, answered by the real worker. */
const upgrade = (user: TestUser, id: string, query = "?new=1") =>
  api(user, `/api/conversations/${id}/ws${query}`, { headers: { upgrade: "websocket" } });

describe("a socket that creates its conversation (?new=1)", () => {
  it("opens on a fresh id, and the first message sent on it is answered and stored as the user's", async () => {
    const user = await createUser();
    const id = crypto.randomUUID();
    const ws = await TestSocket.openWith(id, bearer(user), "?new=1&mode=tools");
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "first", text: "hello there" });
    await ws.until(turnEnded);
    const t = fold(ws.events());
    expect(t.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    ws.close();
    const res = await api(user, `/api/conversations/${id}`);
    expect(res.status).toBe(200);
    const conversation = Conversation.parse(await res.json());
    expect(conversation.mode).toBe("tools");
    const list = (await (await api(user, "/api/conversations")).json()) as {
      items: Array<{ id: string }>;
    };
    expect(list.items.map((c) => c.id)).toContain(id);
  });

  it("starts its object with the upgrade alone, not with a separate start-up call before it", async () => {
    // agents' getAgentByName starts an object by this RPC; the upgrade's fetch starts it itself.
    const startCalls = vi.spyOn(ConversationObject.prototype, "__unsafe_ensureInitialized");
    try {
      const user = await createUser();
      const ws = await TestSocket.openWith(crypto.randomUUID(), bearer(user), "?new=1");
      ws.send({ type: "resume", lastSeq: 0 });
      await ws.until((f) => f.some((x) => x.type === "synced"));
      ws.close();
      expect(startCalls).not.toHaveBeenCalled();
    } finally {
      startCalls.mockRestore();
    }
  });

  it("opening it again (a reconnect with the same URL) reaches the same conversation", async () => {
    const user = await createUser();
    const id = crypto.randomUUID();
    const first = await TestSocket.openWith(id, bearer(user), "?new=1");
    first.send({ type: "resume", lastSeq: 0 });
    first.send({ type: "send", clientMessageId: "m1", text: "hello there" });
    await first.until(turnEnded);
    first.close();
    const again = await TestSocket.openWith(id, bearer(user), "?new=1");
    again.send({ type: "resume", lastSeq: 0 });
    await again.until((f) => f.some((x) => x.type === "synced"));
    expect(fold(again.events()).messages).toHaveLength(2);
    again.close();
  });

  it("takes a title and a template as POST /api/conversations does", async () => {
    const user = await createUser();
    const id = crypto.randomUUID();
    const query = new URLSearchParams({
      new: "1",
      title: "Aspirin papers",
      templateId: "builtin:literature-review",
    });
    const ws = await TestSocket.openWith(id, bearer(user), `?${query}`);
    ws.close();
    const conversation = Conversation.parse(
      await (await api(user, `/api/conversations/${id}`)).json(),
    );
    expect(conversation.title).toBe("Aspirin papers");
    expect(conversation.settings.template?.templateId).toBe("builtin:literature-review");
  });

  it("a stranger's conversation id is refused as not found (4404) and is left as it was", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const conv = await createConversation(owner, { title: "mine" });
    const refusal = await refusalOf(await upgrade(stranger, conv.id));
    expect(refusal).toMatchObject({
      code: CLOSE_CONVERSATION_GONE,
      error: { code: "not_found" },
    });
    const row = await env.DB.prepare("SELECT user_id, title FROM conversations WHERE id = ?")
      .bind(conv.id)
      .first<{ user_id: string; title: string }>();
    expect(row).toEqual({ user_id: owner.id, title: "mine" });
  });

  it("needs a signed-in caller, and an id of the client's own making (a UUID)", async () => {
    const user = await createUser();
    expect((await upgrade({ id: "x", token: "tc_wrong" }, crypto.randomUUID())).status).toBe(401);
    const refusal = await refusalOf(await upgrade(user, "not-a-uuid"));
    expect(refusal.code).toBe(CLOSE_CREATE_REFUSED);
    expect(refusal.error).toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/must be a UUID/),
    });
    const unknownTemplate = await refusalOf(
      await upgrade(user, crypto.randomUUID(), "?new=1&templateId=builtin:nothing-like-it"),
    );
    expect(unknownTemplate.error.code).toBe("not_found");
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("counts against the same limit as POST /api/conversations", async () => {
    const user = await createUser();
    const vars = { RATE_LIMIT_NEW_CONVERSATION: "2/60" };
    const call = (path: string, init: RequestInit) =>
      Promise.resolve(
        app.fetch(
          new Request(BASE + path, {
            ...init,
            headers: { ...bearer(user), ...(init.headers as Record<string, string>) },
          }),
          { ...env, ...vars },
          createExecutionContext(),
        ),
      );
    const created = await call("/api/conversations", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(created.status).toBe(201);
    const open = (id: string) =>
      call(`/api/conversations/${id}/ws?new=1`, { headers: { upgrade: "websocket" } });
    const socket = await open(crypto.randomUUID());
    expect(socket.status).toBe(101);
    socket.webSocket?.accept();
    socket.webSocket?.close();
    // A browser cannot read a refused upgrade's answer: the socket says why, then closes.
    const refused = await refusalOf(await open(crypto.randomUUID()));
    expect(refused.code).toBe(CLOSE_CREATE_REFUSED);
    expect(refused.error).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/new conversations/),
    });
  });
});
