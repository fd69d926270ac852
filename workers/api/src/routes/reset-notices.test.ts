// A route changes D1, then tells the conversation's object, and the object is reset (a deploy)
// while the route's call waits: the change stands, so the route answers as it always does.
// Sharing: the owner adds, changes or removes a member, or a member leaves; the conversation
// follows D1: a removed member's tab that reconnects is told they were removed, one who left that
// they left, one added can write, one made a viewer cannot. Artifacts: a rename or a deletion,
// which the route tells the conversation again a moment later (artifact-notice.ts).
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  CLOSE_ACCESS_REVOKED,
  CLOSE_REASON_ACCESS_REVOKED,
  CLOSE_REASON_LEFT,
} from "../../../../durable-objects/protocol/close-codes";
import type { Conversation } from "../../../../durable-objects/conversation/conversation";
import type { MemberList } from "../../../../durable-objects/protocol/sharing";
import type { ServerFrame } from "../../../../durable-objects/protocol/wire";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
  sharedConversation,
  type TestUser,
} from "../../../../tests/support/helpers";
import { resetWhileTold } from "../../../../tests/support/notice-lost";
import { TestSocket } from "../../../../tests/support/ws-client";

const people = () => sharedConversation();

const LOST = "could not tell the conversation of a change in who may use it";
const ARTIFACT_LOST = "could not tell the conversation of an artifact change";

async function join(user: TestUser, id: string): Promise<TestSocket> {
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0, presence: true });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  return ws;
}

/** How a socket opened now closes: code and reason, once it has. */
async function reconnecting(user: TestUser, id: string): Promise<[number | null, string]> {
  const ws = await TestSocket.open(user, id);
  await ws.until(() => ws.closed).catch(() => undefined);
  return [ws.closeCode, ws.closeReason];
}

const departed = (id: string, userId: string) => async () =>
  (await env.DB.prepare(
    "SELECT 1 FROM conversation_departures WHERE conversation_id = ? AND user_id = ?",
  )
    .bind(id, userId)
    .first()) !== null;

const hasRole = (id: string, userId: string, role: string) => async () =>
  (await env.DB.prepare(
    "SELECT 1 FROM conversation_members WHERE conversation_id = ? AND user_id = ? AND role = ?",
  )
    .bind(id, userId, role)
    .first()) !== null;

describe("sharing changes whose word to the conversation is lost", () => {
  it("a removal and a leave still answer 204; reconnecting tabs are told which it was", async () => {
    const { owner, participant, viewer, id } = await people();
    const tab = await join(viewer, id);

    const removal = await resetWhileTold(
      id,
      () => api(owner, `/api/conversations/${id}/members/${viewer.id}`, { method: "DELETE" }),
      departed(id, viewer.id),
    );
    expect(removal.res.status).toBe(204);
    expect(removal.warnings).toContain(LOST);
    // The reset dropped the open tab's connection; reconnecting, it is told it was removed.
    await tab.until(() => tab.closed);
    expect(await reconnecting(viewer, id)).toEqual([
      CLOSE_ACCESS_REVOKED,
      CLOSE_REASON_ACCESS_REVOKED,
    ]);

    const leave = await resetWhileTold(
      id,
      () =>
        api(participant, `/api/conversations/${id}/members/${participant.id}`, {
          method: "DELETE",
        }),
      departed(id, participant.id),
    );
    expect(leave.res.status).toBe(204);
    expect(leave.warnings).toContain(LOST);
    expect(await reconnecting(participant, id)).toEqual([CLOSE_ACCESS_REVOKED, CLOSE_REASON_LEFT]);
  });

  it("one added can write; one made a viewer cannot; both answers are the member list", async () => {
    const { owner, participant, id } = await people();
    const newcomer = await createUser();

    const added = await resetWhileTold(
      id,
      () =>
        api(owner, `/api/conversations/${id}/members`, {
          method: "PUT",
          json: { user: newcomer.id, role: "participant" },
        }),
      hasRole(id, newcomer.id, "participant"),
    );
    expect(added.res.status).toBe(200);
    expect(added.warnings).toContain(LOST);
    const list = (await added.res.json()) as MemberList;
    expect(list.members.map((m) => [m.user.id, m.role])).toContainEqual([
      newcomer.id,
      "participant",
    ]);
    const theirs = await join(newcomer, id);
    theirs.send({ type: "send", clientMessageId: "newcomer-1", text: "hello, I am new" });
    await theirs.until((f) => f.some((x) => x.type === "ack" || x.type === "frame_error"));
    expect(theirs.frames.filter((f) => f.type === "frame_error")).toEqual([]);
    await theirs.until((f) => f.some((x) => x.type === "turn_ended"));
    theirs.close();

    const demoted = await resetWhileTold(
      id,
      () =>
        api(owner, `/api/conversations/${id}/members`, {
          method: "PUT",
          json: { user: participant.id, role: "viewer" },
        }),
      hasRole(id, participant.id, "viewer"),
    );
    expect(demoted.res.status).toBe(200);
    expect(demoted.warnings).toContain(LOST);
    const viewerTab = await join(participant, id);
    viewerTab.send({ type: "send", clientMessageId: "demoted-1", text: "may I?" });
    await viewerTab.until((f) => f.some((x) => x.type === "frame_error"));
    expect(viewerTab.frames.some((f) => f.type === "ack")).toBe(false);
    viewerTab.close();
  });
});

describe("artifact changes whose word to the conversation is lost", () => {
  it("a rename and a deletion succeed, and the conversation hears of each a moment later", async () => {
    const owner = await createUser();
    const { id } = await createConversation(owner);
    const artifactId = await insertArtifact(id, { title: "Plan", content: "# plan" });
    const title = async () =>
      (
        await env.DB.prepare("SELECT title FROM artifacts WHERE id = ?")
          .bind(artifactId)
          .first<{ title: string }>()
      )?.title;
    /** What the object will tell the model of the artifact at its next turn. */
    const modelIsTold = () =>
      runInDurableObject(env.CONVERSATION.getByName(id), (instance: Conversation) =>
        instance.store.artifactNow(artifactId),
      );
    /** A tab opened now: it replays the log, then follows it, until `change` shows in it. */
    const tabShows = async (change: (e: ServerFrame) => boolean) => {
      const tab = await TestSocket.openSynced(owner, id);
      await tab.until((f) => f.some(change));
      tab.close();
    };

    const renamed = await resetWhileTold(
      id,
      () =>
        api(owner, `/api/artifacts/${artifactId}`, {
          method: "PATCH",
          json: { title: "Plan B" },
        }),
      async () => (await title()) === "Plan B",
    );
    expect(renamed.res.status).toBe(200);
    expect(((await renamed.res.json()) as { title: string }).title).toBe("Plan B");
    expect(renamed.warnings).toContain(ARTIFACT_LOST);
    await tabShows((e) => e.type === "artifact_changed" && e.title === "Plan B");
    expect(await modelIsTold()).toEqual({ title: "Plan B", deleted: false });

    const deleted = await resetWhileTold(
      id,
      () => api(owner, `/api/artifacts/${artifactId}`, { method: "DELETE" }),
      async () => (await title()) === undefined,
    );
    expect(deleted.res.status).toBe(204);
    expect(deleted.warnings).toContain(ARTIFACT_LOST);
    expect((await api(owner, `/api/artifacts/${artifactId}`)).status).toBe(404);
    await tabShows((e) => e.type === "artifact_changed" && e.change === "deleted");
    expect(await modelIsTold()).toEqual({ title: "Plan B", deleted: true });
  });
});
