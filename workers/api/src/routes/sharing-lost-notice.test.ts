// A member's leave, or the owner's removal of them, that the conversation's object was never
// told of (the worker's call to it lost after D1 was written), or that a tab of theirs missed
// (offline then): the object finds out when it re-reads its members, the tab when it reconnects,
// and either way the member is told which of the two it was.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  addMembers,
  api,
  bearer,
  createUser,
  sharedConversation,
  errorOf,
  type TestUser,
} from "../../../../tests/support/helpers";
import { TestSocket } from "../../../../tests/support/ws-client";
import {
  CLOSE_ACCESS_REVOKED,
  CLOSE_REASON_ACCESS_REVOKED,
  CLOSE_REASON_LEFT,
} from "../../../../durable-objects/protocol/close-codes";
import { createDb } from "../../../../shared/db/client";
import { leaveConversation, removeMember } from "../db/members";

const people = () => sharedConversation();

async function join(user: TestUser, id: string): Promise<TestSocket> {
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0, presence: true });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  return ws;
}

/** How the socket closed: code and reason, once it has. */
async function closing(ws: TestSocket): Promise<[number | null, string]> {
  await ws.until(() => ws.closed).catch(() => undefined);
  return [ws.closeCode, ws.closeReason];
}

describe("leaves and removals the conversation or a tab was not told of", () => {
  it("as events go out, one who left is told they left, one removed that they were removed", async () => {
    const { owner, participant, viewer, id } = await people();
    const a = await join(owner, id);
    const b = await join(participant, id);
    const c = await join(viewer, id);
    // What the worker writes for the participant's own leave and the owner's removal of the viewer.
    const db = createDb(env.DB);
    expect(await leaveConversation(db, id, participant.id)).toBe(true);
    expect(await removeMember(db, id, viewer.id)).toBe(true);
    // The owner's message sends events out, and the object re-reads who is connected.
    a.send({ type: "send", clientMessageId: "after-leave", text: "hello" });
    expect(await closing(b)).toEqual([CLOSE_ACCESS_REVOKED, CLOSE_REASON_LEFT]);
    expect(await closing(c)).toEqual([CLOSE_ACCESS_REVOKED, CLOSE_REASON_ACCESS_REVOKED]);
    await a.until((f) => f.some((x) => x.type === "turn_ended"));
    a.close();
  });

  it("one who left sends a message: refused, their socket closes saying they left", async () => {
    const { participant, id } = await people();
    const b = await join(participant, id);
    expect(await leaveConversation(createDb(env.DB), id, participant.id)).toBe(true);
    b.send({ type: "send", clientMessageId: "after-leave", text: "one more" });
    expect(await closing(b)).toEqual([CLOSE_ACCESS_REVOKED, CLOSE_REASON_LEFT]);
  });

  it("one who left and was shared with again, then removed, is told they were removed", async () => {
    const { owner, participant, id } = await people();
    const left = await api(participant, `/api/conversations/${id}/members/${participant.id}`, {
      method: "DELETE",
    });
    expect(left.status).toBe(204);
    await addMembers(owner, id, [[participant, "participant"]]);
    const b = await join(participant, id);
    expect(await removeMember(createDb(env.DB), id, participant.id)).toBe(true);
    b.send({ type: "send", clientMessageId: "after-removal", text: "still here?" });
    expect(await closing(b)).toEqual([CLOSE_ACCESS_REVOKED, CLOSE_REASON_ACCESS_REVOKED]);
  });

  it("a tab reconnecting after the user left, or was removed, is told which; a stranger is refused as before", async () => {
    const { owner, participant, viewer, id } = await people();
    const left = await api(participant, `/api/conversations/${id}/members/${participant.id}`, {
      method: "DELETE",
    });
    expect(left.status).toBe(204);
    const removed = await api(owner, `/api/conversations/${id}/members/${viewer.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    // Their tabs were offline then: on reconnecting, the socket opens and closes saying why.
    expect(await closing(await TestSocket.open(participant, id))).toEqual([
      CLOSE_ACCESS_REVOKED,
      CLOSE_REASON_LEFT,
    ]);
    expect(await closing(await TestSocket.open(viewer, id))).toEqual([
      CLOSE_ACCESS_REVOKED,
      CLOSE_REASON_ACCESS_REVOKED,
    ]);
    // A client that opens it with ?new=1 (a repeated creating open, say) is told the same.
    expect(await closing(await TestSocket.openWith(id, bearer(participant), "?new=1"))).toEqual([
      CLOSE_ACCESS_REVOKED,
      CLOSE_REASON_LEFT,
    ]);
    const stranger = await createUser(`dee-${crypto.randomUUID().slice(0, 8)}`);
    await expect(TestSocket.open(stranger, id)).rejects.toThrow(/404/);
    // Shared with again, they are let in.
    await addMembers(owner, id, [[participant, "viewer"]]);
    const again = await join(participant, id);
    expect(again.closed).toBe(false);
    again.close();
  });

  it("leaving a conversation you are not a member of is refused, saying why, and records nothing", async () => {
    const { owner, id } = await people();
    const stranger = await createUser(`dee-${crypto.randomUUID().slice(0, 8)}`);
    expect(await leaveConversation(createDb(env.DB), id, stranger.id)).toBe(false);
    const res = await api(owner, `/api/conversations/${id}/members/${owner.id}`, {
      method: "DELETE",
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/You own this conversation: you cannot leave it/);
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM conversation_departures WHERE conversation_id = ?",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
