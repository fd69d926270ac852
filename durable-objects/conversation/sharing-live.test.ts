// Several people live in one conversation over WebSockets: presence, authorship, two senders at
// once, what a viewer may not do, and a removed member's socket closing at once.
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { api, sharedConversation, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket } from "../../tests/support/ws-client";
import type { ServerFrame } from "../protocol/wire";
import { isTurnEnd, SseReader } from "../../tests/support/sse-client";
import { ACCESS_REVOKED_COMMENT, CLOSE_ACCESS_REVOKED, LEFT_COMMENT } from "./member-access";
import { CLOSE_REASON_ACCESS_REVOKED, CLOSE_REASON_LEFT } from "../protocol/close-codes";

type Presence = Extract<ServerFrame, { type: "presence" }>;

/** Every model request aimock received, as JSON text (its journal is the witness). */
async function modelRequests(): Promise<string[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: unknown }>;
  return entries.map((e) => JSON.stringify(e.body ?? null));
}

const people = () => sharedConversation();

async function join(user: TestUser, id: string): Promise<TestSocket> {
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0, presence: true });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  return ws;
}

const lastPresence = (ws: TestSocket): Presence | undefined =>
  ws.frames.filter((f): f is Presence => f.type === "presence").at(-1);

const presenceShows = (ws: TestSocket, check: (p: Presence) => boolean) => () => {
  const p = lastPresence(ws);
  return p !== undefined && check(p);
};

describe("several people in one conversation", () => {
  it("shows who is here and who types; a participant's message carries their name to everyone", async () => {
    const { owner, participant, viewer, id, suffix } = await people();
    const a = await join(owner, id);
    const b = await join(participant, id);
    const c = await join(viewer, id);
    await a.until(presenceShows(a, (p) => p.people.length === 3));
    const here = lastPresence(a)!;
    expect(here.you).toEqual({ userId: owner.id, role: "owner" });
    expect(here.people.map((p) => [p.name, p.role])).toEqual([
      [`ada-${suffix}`, "owner"],
      [`bo-${suffix}`, "participant"],
      [`cy-${suffix}`, "viewer"],
    ]);
    await c.until(presenceShows(c, (p) => p.people.length === 3));
    expect(lastPresence(c)?.you).toEqual({ userId: viewer.id, role: "viewer" });

    b.send({ type: "typing", typing: true });
    await c.until(
      presenceShows(c, (p) => p.people.some((x) => x.userId === participant.id && x.typing)),
    );

    b.send({ type: "send", clientMessageId: "b-1", text: "hello from bo" });
    await c.until((f) => f.some((x) => x.type === "turn_ended"));
    const transcript = fold(c.events());
    expect(transcript.messages[0]?.author).toEqual({ id: participant.id, name: `bo-${suffix}` });
    // Sending ends typing.
    await c.until(presenceShows(c, (p) => p.people.every((x) => !x.typing)));

    b.close();
    await a.until(presenceShows(a, (p) => p.people.length === 2));
    a.close();
    c.close();
  });

  it("two people sending at once: both messages are kept, each answered, in order", async () => {
    const { owner, participant, id, suffix } = await people();
    const a = await join(owner, id);
    const b = await join(participant, id);
    a.send({ type: "send", clientMessageId: "a-1", text: "first from the owner" });
    b.send({ type: "send", clientMessageId: "b-1", text: "first from the participant" });
    await a.until((f) => f.filter((x) => x.type === "turn_ended").length === 2, 30_000);
    const t = fold(a.events());
    const users = t.messages.filter((m) => m.role === "user");
    expect(users.map((m) => m.author?.id).sort()).toEqual([owner.id, participant.id].sort());
    expect(t.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(t.messages.every((m) => m.status === "complete")).toBe(true);
    // The participant's socket saw the same transcript.
    await b.until((f) => f.filter((x) => x.type === "turn_ended").length === 2);
    expect(fold(b.events()).messages.map((m) => m.id)).toEqual(t.messages.map((m) => m.id));
    // The model can tell them apart: the second answer's request names each message's author.
    const bodies = await modelRequests();
    expect(
      bodies.some(
        (body) =>
          body.includes(`[ada-${suffix}] first from the owner`) &&
          body.includes(`[bo-${suffix}] first from the participant`),
      ),
    ).toBe(true);
    a.close();
    b.close();
  });

  it("a viewer follows along but cannot send, cancel or approve, and is told why", async () => {
    const { viewer, id } = await people();
    const c = await join(viewer, id);
    c.send({ type: "send", clientMessageId: "v-1", text: "let me in" });
    c.send({ type: "cancel" });
    c.send({ type: "approval", approvalId: "x", decision: "approve" });
    await c.until((f) => f.filter((x) => x.type === "frame_error").length === 3);
    const errors = c.frames.flatMap((f) => (f.type === "frame_error" ? [f.error] : []));
    expect(errors.map((e) => e.code)).toEqual(["forbidden", "forbidden", "forbidden"]);
    expect(errors[0]?.message).toMatch(/viewer/);
    expect(c.frames.some((f) => f.type === "ack")).toBe(false);
    c.close();
  });

  it("a participant may not branch (a branch is the owner's conversation), and is told so", async () => {
    const { participant, id } = await people();
    const c = await join(participant, id);
    c.send({ type: "branch", messageId: "any" });
    await c.until((f) => f.some((x) => x.type === "frame_error"));
    const refused = c.frames.find((f) => f.type === "frame_error");
    expect(refused?.type === "frame_error" && refused.error.code).toBe("forbidden");
    expect(refused?.type === "frame_error" && refused.error.message).toMatch(/Only the owner/);
    c.close();
  });

  it("a participant cannot spend past the owner's daily allowance (answers are the owner's usage)", async () => {
    const { owner, participant, id } = await people();
    // The tests' allowance is 2000 tokens a day: the owner used 3000 today.
    await env.DB.prepare(
      "INSERT INTO usage (id, user_id, conversation_id, provider, model, input_tokens) VALUES (?, ?, ?, 'openai', 'gpt-test', 3000)",
    )
      .bind(crypto.randomUUID(), owner.id, id)
      .run();
    const b = await join(participant, id);
    b.send({ type: "send", clientMessageId: "b-over", text: "one more?" });
    await b.until((f) => f.some((x) => x.type === "frame_error"));
    const refused = b.frames.find((f) => f.type === "frame_error");
    expect(refused?.type === "frame_error" && refused.error.code).toBe("daily_allowance_exceeded");
    expect(refused?.type === "frame_error" && refused.error.message).toMatch(/owner/);
    expect(b.frames.some((f) => f.type === "ack")).toBe(false);

    const sse = await api(participant, `/api/conversations/${id}/chat`, {
      method: "POST",
      json: { clientMessageId: "b-over-sse", text: "and over SSE?" },
    });
    expect(sse.status).toBe(429);
    b.close();
  });

  it("removing a member closes their open socket at once; making them a viewer stops their sends", async () => {
    const { owner, participant, viewer, id } = await people();
    const b = await join(participant, id);
    const c = await join(viewer, id);

    const demoted = await api(owner, `/api/conversations/${id}/members`, {
      method: "PUT",
      json: { user: participant.id, role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    await b.until(presenceShows(b, (p) => p.you.role === "viewer"));
    b.send({ type: "send", clientMessageId: "b-late", text: "still here?" });
    await b.until((f) => f.some((x) => x.type === "frame_error"));

    const removed = await api(owner, `/api/conversations/${id}/members/${viewer.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    // No frame from the viewer is needed: the socket is closed by the removal itself.
    await c.until(() => c.closed).catch(() => undefined);
    expect(c.closed).toBe(true);
    expect(c.closeCode).toBe(CLOSE_ACCESS_REVOKED);
    expect(c.closeReason).toBe(CLOSE_REASON_ACCESS_REVOKED);
    b.close();
  });

  it("a member who leaves: their other tabs and streams end saying they left, not that the owner stopped sharing", async () => {
    const { owner, participant, viewer, id } = await people();
    const tabs = [await join(participant, id), await join(participant, id)];
    // A slow answer (about 4 s) keeps the viewer's stream following live events.
    const owners = new SseReader(
      await api(owner, `/api/conversations/${id}/chat`, {
        method: "POST",
        json: { clientMessageId: "slow-left", text: `slow answer please ${id}` },
      }),
    );
    const listener = new SseReader(await api(viewer, `/api/conversations/${id}/events`));
    await listener.until((f) => f.some((x) => x.event === "text_delta"));

    // Left from a third tab (or a script): the API's DELETE of their own membership.
    for (const who of [participant, viewer]) {
      const left = await api(who, `/api/conversations/${id}/members/${who.id}`, {
        method: "DELETE",
      });
      expect(left.status).toBe(204);
    }
    for (const tab of tabs) {
      await tab.until(() => tab.closed).catch(() => undefined);
      expect(tab.closeCode).toBe(CLOSE_ACCESS_REVOKED);
      expect(tab.closeReason).toBe(CLOSE_REASON_LEFT);
    }
    await listener.done(3_000);
    expect(listener.comments).toContain(LEFT_COMMENT);
    expect(listener.comments).not.toContain(ACCESS_REVOKED_COMMENT);
    await owners.done(30_000);
  });

  it("a removal the object was never told of still closes the member's socket as events go out", async () => {
    const { owner, participant, id } = await people();
    const a = await join(owner, id);
    const b = await join(participant, id);
    // The worker wrote the removal, and its call to the object was lost.
    await env.DB.prepare(
      "DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?",
    )
      .bind(id, participant.id)
      .run();
    a.send({ type: "send", clientMessageId: "after-removal", text: "hello" });
    await b.until(() => b.closed).catch(() => undefined);
    expect(b.closed).toBe(true);
    // As with a revoked credential, the events of that moment may still have reached it.
    expect(b.closeCode).toBe(CLOSE_ACCESS_REVOKED);
    await a.until((f) => f.some((x) => x.type === "turn_ended"));
    a.close();
  });

  it("a viewer's typing is not shown; a participant made a viewer while typing stops showing as typing", async () => {
    const { owner, participant, viewer, id } = await people();
    const a = await join(owner, id);
    const b = await join(participant, id);
    const c = await join(viewer, id);
    /** Every frame the server sent `ws` before now has arrived (frames come in order). */
    const caughtUp = async (ws: TestSocket) => {
      const pongs = ws.frames.filter((f) => f.type === "pong").length;
      ws.send({ type: "ping" });
      await ws.until((f) => f.filter((x) => x.type === "pong").length > pongs);
    };
    const typing = (userId: string) =>
      lastPresence(a)?.people.some((p) => p.userId === userId && p.typing) ?? false;

    c.send({ type: "typing", typing: true });
    await caughtUp(c);
    await caughtUp(a);
    expect(typing(viewer.id)).toBe(false);
    expect(c.frames.some((f) => f.type === "frame_error")).toBe(false);

    b.send({ type: "typing", typing: true });
    await a.until(() => typing(participant.id));
    const demoted = await api(owner, `/api/conversations/${id}/members`, {
      method: "PUT",
      json: { user: participant.id, role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    await a.until(
      presenceShows(a, (p) =>
        p.people.some((x) => x.userId === participant.id && x.role === "viewer"),
      ),
    );
    expect(typing(participant.id)).toBe(false);
    for (const ws of [a, b, c]) ws.close();
  });

  it("removing a member ends their open event stream at once, with a comment saying why", async () => {
    const { owner, viewer, id } = await people();
    // A slow answer (about 4 s) keeps the stream following live events.
    const owners = new SseReader(
      await api(owner, `/api/conversations/${id}/chat`, {
        method: "POST",
        json: { clientMessageId: "slow-1", text: `slow answer please ${id}` },
      }),
    );
    const listener = new SseReader(await api(viewer, `/api/conversations/${id}/events`));
    await listener.until((f) => f.some((x) => x.event === "text_delta"));

    const removed = await api(owner, `/api/conversations/${id}/members/${viewer.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    await listener.done(3_000);
    expect(listener.comments).toContain(ACCESS_REVOKED_COMMENT);
    expect(listener.events().some(isTurnEnd)).toBe(false);
    await owners.done(30_000);
    expect(owners.events().some(isTurnEnd)).toBe(true);
  });
});
