import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../shared/rate-limit/limits";
import { createConversation, createUser } from "../../tests/support/helpers";
import { TestSocket } from "../../tests/support/ws-client";

describe("messages over a WebSocket count against the user's message limit", () => {
  it("a user over the limit gets a rate_limited frame_error and nothing is stored; a resend is not counted", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.openSynced(user, conv.id);
    ws.send({ type: "send", clientMessageId: "before", text: "hello there" });
    await ws.until((f) => f.some((x) => x.type === "ack"));

    // The same counter POST /chat uses: spend what is left of this minute's allowance.
    const { limit, periodSeconds, name } = RATE_LIMITS.message;
    const counter = env.RATE_LIMIT_COUNTER.get(
      env.RATE_LIMIT_COUNTER.idFromName(`${name}:user:${user.id}`),
    );
    for (let i = 1; i < limit; i++) await counter.hit(limit, periodSeconds);

    ws.send({ type: "send", clientMessageId: "over", text: "one too many" });
    await ws.until((f) => f.some((x) => x.type === "frame_error"));
    const error = ws.frames.find((f) => f.type === "frame_error");
    expect(error).toMatchObject({
      type: "frame_error",
      error: { code: "rate_limited", message: expect.stringMatching(/Too many messages/) },
    });
    expect(ws.frames.some((f) => f.type === "ack" && f.clientMessageId === "over")).toBe(false);
    expect(
      ws.events().some((e) => e.type === "user_message" && e.message.clientMessageId === "over"),
    ).toBe(false);

    // Resending a message that was stored is acknowledged as a duplicate, not refused.
    ws.send({ type: "send", clientMessageId: "before", text: "hello there" });
    await ws.until((f) => f.filter((x) => x.type === "ack").length === 2);
    const acks = ws.frames.filter((f) => f.type === "ack");
    expect(acks.map((a) => a.type === "ack" && a.duplicate)).toEqual([false, true]);
    ws.close();
  });
});
