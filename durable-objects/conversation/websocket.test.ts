import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";

describe("a streamed conversation over the WebSocket", () => {
  it("streams a reply, stores both messages in D1, and a resent message is stored once", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.openSynced(user, conv.id);
    ws.send({ type: "send", clientMessageId: "m1", text: "hello there" });
    ws.send({ type: "send", clientMessageId: "m1", text: "hello there" });
    await ws.until(turnEnded);
    const acks = ws.frames.filter((f) => f.type === "ack");
    expect(acks.map((a) => a.type === "ack" && a.duplicate)).toEqual([false, true]);
    const t = fold(ws.events());
    expect(t.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(t.messages[1]?.content).toEqual([{ type: "text", text: "Hello! I am a mock model." }]);
    // The outbox lands both messages in D1.
    await expectEventually(async () => {
      const res = await api(user, `/api/conversations/${conv.id}/messages`);
      const body = (await res.json()) as { items: Array<{ role: string; content: unknown }> };
      expect(body.items.map((m) => m.role)).toEqual(["user", "assistant"]);
    });
    // The first message names the conversation.
    const after = (await (await api(user, `/api/conversations/${conv.id}`)).json()) as {
      title: string;
    };
    expect(after.title).toBe("hello there");
    ws.close();
  });

  it("after 20 dropped connections mid-reply the client's transcript equals the server's, no gap, no duplicate", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const watcher = await TestSocket.openSynced(user, conv.id);

    const received: ServerEvent[] = [];
    let lastSeq = 0;
    let sent = false;
    for (let drop = 0; drop < 20; drop++) {
      const ws = await TestSocket.open(user, conv.id);
      ws.send({ type: "resume", lastSeq });
      if (!sent) {
        ws.send({ type: "send", clientMessageId: "long-1", text: "please give a long answer" });
        sent = true;
      }
      // Cut after a few more events each time, at a different point in the stream.
      const target = received.length + 2 + (drop % 3);
      await ws.until(
        (f) =>
          f.filter((x) => "seq" in x && x.type !== "ack" && x.type !== "synced").length +
            received.length >=
            target || turnEnded(f),
      );
      received.push(...ws.events());
      lastSeq = received[received.length - 1]?.seq ?? lastSeq;
      ws.close();
    }
    const final = await TestSocket.open(user, conv.id);
    final.send({ type: "resume", lastSeq });
    await final.until(
      (f) => turnEnded([...received, ...f.filter((x) => "seq" in x)] as never) || turnEnded(f),
    );
    received.push(...final.events());
    await watcher.until(turnEnded);

    const seqs = received.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // contiguous from 1: no gap, no duplicate
    expect(fold(received)).toEqual(fold(watcher.events()));
    const answer = fold(received).messages[1];
    expect(answer?.status).toBe("complete");
    expect(answer?.content[0]).toMatchObject({ type: "text" });
    expect((answer?.content[0] as { text: string }).text).toContain(
      "Sentence 60 of a long streamed answer.",
    );
    final.close();
    watcher.close();
  });

  it("answers malformed, unknown and oversized frames with an error and keeps serving", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send("{not json");
    ws.send(JSON.stringify({ type: "launch_missiles" }));
    ws.send(JSON.stringify({ type: "send", clientMessageId: "", text: "x" }));
    ws.send(JSON.stringify({ type: "send", clientMessageId: "big", text: "x".repeat(70 * 1024) }));
    await ws.until((f) => f.filter((x) => x.type === "frame_error").length === 4);
    const codes = ws.frames.flatMap((f) => (f.type === "frame_error" ? [f.error.code] : []));
    expect(codes).toEqual(["invalid_json", "invalid_frame", "invalid_frame", "frame_too_large"]);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "ok-1", text: "still there?" });
    await ws.until(turnEnded);
    expect(fold(ws.events()).messages).toHaveLength(2);
    ws.close();
  });

  it("serves a resume asked for in the handshake as the socket opens, from the seq given", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const first = await TestSocket.open(user, conv.id);
    first.send({ type: "resume", lastSeq: 0 });
    first.send({ type: "send", clientMessageId: "h1", text: "hello there" });
    await first.until(turnEnded);
    first.close();
    const all = first.events();
    const auth = { authorization: `Bearer ${user.token}` };

    // No frame sent: the replay (one `replay` frame) and `synced` come by themselves.
    const whole = await TestSocket.openWith(conv.id, auth, "?resume=0&batch=1&compact=1");
    await whole.until((f) => f.some((x) => x.type === "synced"));
    expect(whole.frames.map((f) => f.type)).toEqual(["replay", "synced"]);
    const replayed = whole.frames[0]?.type === "replay" ? whole.frames[0].events : [];
    expect(fold(replayed)).toEqual(fold(all));
    whole.close();

    // From the middle: only what follows, one frame per event, then live as usual.
    const from = all[2]!.seq;
    const rest = await TestSocket.openWith(conv.id, auth, `?resume=${from}`);
    await rest.until((f) => f.some((x) => x.type === "synced"));
    expect(rest.events().map((e) => e.seq)).toEqual(all.slice(3).map((e) => e.seq));
    rest.send({ type: "send", clientMessageId: "h2", text: "and again" });
    await rest.until((f) => f.filter((x) => x.type === "turn_ended").length >= 1);
    rest.close();
  });

  it("refuses a resume from past the log's end, which would skip every event until the log got there", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const first = await TestSocket.open(user, conv.id);
    first.send({ type: "resume", lastSeq: 0 });
    first.send({ type: "send", clientMessageId: "p1", text: "hello there" });
    await first.until(turnEnded);
    const last = first.events().at(-1)!.seq;
    first.close();
    const auth = { authorization: `Bearer ${user.token}` };

    for (const open of [
      async () => {
        const ws = await TestSocket.open(user, conv.id);
        ws.send({ type: "resume", lastSeq: last + 50 });
        return ws;
      },
      () => TestSocket.openWith(conv.id, auth, `?resume=${last + 50}`),
    ]) {
      const ws = await open();
      await ws.until((f) => f.some((x) => x.type === "frame_error"));
      const refused = ws.frames.find((f) => f.type === "frame_error");
      expect(refused?.type === "frame_error" && refused.error).toEqual({
        code: "validation_failed",
        message: expect.stringContaining(
          `${last + 50} is past this conversation's last event, ${last}`,
        ),
      });
      expect(ws.frames.some((f) => f.type === "synced")).toBe(false);
      // The socket stays usable: a resume from a point the log has reached is served.
      ws.send({ type: "resume", lastSeq: last });
      await ws.until((f) => f.some((x) => x.type === "synced"));
      const synced = ws.frames.find((f) => f.type === "synced");
      expect(synced?.type === "synced" && synced.seq).toBe(last);
      ws.close();
    }
  });

  it("refuses a handshake whose resume is malformed, saying which parameter and why", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const { exports } = await import("cloudflare:workers");
    for (const query of ["?resume=-1", "?resume=abc", "?resume=0&compact=yes"]) {
      const res = await exports.default.fetch(
        `http://app.test/api/conversations/${conv.id}/ws${query}`,
        { headers: { upgrade: "websocket", authorization: `Bearer ${user.token}` } },
      );
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.message).toMatch(query.includes("compact") ? /'compact'/ : /'resume'/);
    }
  });

  it("refuses a WebSocket from a foreign origin and one without credentials", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    await expect(
      TestSocket.open(user, conv.id, { origin: "https://evil.example" }),
    ).rejects.toThrow(/403/);
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(`http://app.test/api/conversations/${conv.id}/ws`, {
      headers: { upgrade: "websocket" },
    });
    expect(res.status).toBe(401);
  });

  it("queues a message sent during a turn and answers both in order", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q1", text: "a slow answer please" });
    ws.send({ type: "send", clientMessageId: "q2", text: "and then hello" });
    await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === 2);
    const acks = ws.frames.filter((f) => f.type === "ack");
    expect(acks.map((a) => a.type === "ack" && a.queued)).toEqual([false, true]);
    const t = fold(ws.events());
    expect(t.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(t.messages[1]?.content).toEqual([
      { type: "text", text: "This answer takes a while to arrive." },
    ]);
    ws.close();
  });

  it("cancels a turn and keeps what was shown", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "c1", text: "a slow answer please" });
    await ws.until((f) => f.some((x) => x.type === "text_delta"));
    ws.send({ type: "cancel" });
    await ws.until(turnEnded);
    const answer = fold(ws.events()).messages[1];
    expect(answer?.status).toBe("cancelled");
    expect((answer?.content[0] as { text: string }).text.length).toBeGreaterThan(0);
    expect(env).toBeDefined();
    ws.close();
  });
});

async function expectEventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
