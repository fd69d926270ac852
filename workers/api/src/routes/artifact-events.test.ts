// An artifact changed over REST reaches everyone who has its conversation open at once (an
// `artifact_changed` event on their sockets), and an event stream replays the same events.
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
} from "../../../../tests/support/helpers";
import { SseReader } from "../../../../tests/support/sse-client";
import { TestSocket } from "../../../../tests/support/ws-client";
import type { ServerEvent } from "../../../../durable-objects/protocol/wire";

type Changed = Extract<ServerEvent, { type: "artifact_changed" }>;
const changes = (events: ServerEvent[]) =>
  events.filter((e): e is Changed => e.type === "artifact_changed");

async function openTab(user: Awaited<ReturnType<typeof createUser>>, conversationId: string) {
  const tab = await TestSocket.open(user, conversationId);
  tab.send({ type: "resume", lastSeq: 0 });
  await tab.until((frames) => frames.some((f) => f.type === "synced"));
  return tab;
}

describe("artifact changes reach the open conversation", () => {
  it("tells the owner's other tab and a viewer of each rename, edit, pin and delete", async () => {
    const owner = await createUser();
    const viewerName = `viewer-${crypto.randomUUID().slice(0, 8)}`;
    const viewer = await createUser(viewerName);
    const conv = await createConversation(owner);
    const shared = await api(owner, `/api/conversations/${conv.id}/members`, {
      method: "PUT",
      json: { user: viewerName, role: "viewer" },
    });
    expect(shared.status).toBe(200);
    const id = await insertArtifact(conv.id, { title: "Plan", content: "v1" });
    const otherTab = await openTab(owner, conv.id);
    const viewerTab = await openTab(viewer, conv.id);
    type Saved = { title: string; pinned: boolean; updatedAt: number };
    const opened = (await (await api(owner, `/api/artifacts/${id}`)).json()) as Saved;

    const seen = async (n: number) => {
      for (const tab of [otherTab, viewerTab])
        await tab.until(() => changes(tab.events()).length >= n);
      return changes(viewerTab.events()).at(-1);
    };
    const renamed = (await (
      await api(owner, `/api/artifacts/${id}`, {
        method: "PATCH",
        json: { title: "Plan B", baseUpdatedAt: opened.updatedAt },
      })
    ).json()) as Saved;
    expect(await seen(1)).toMatchObject({
      artifactId: id,
      change: "title",
      title: "Plan B",
      pinned: false,
      updatedAt: renamed.updatedAt,
    });

    // A rename made from the version before is refused and tells no one anything.
    const stale = await api(owner, `/api/artifacts/${id}`, {
      method: "PATCH",
      json: { title: "Plan C", baseUpdatedAt: opened.updatedAt },
    });
    expect(stale.status).toBe(409);

    const edited = (await (
      await api(owner, `/api/artifacts/${id}`, {
        method: "PATCH",
        json: { content: "v2", baseUpdatedAt: renamed.updatedAt },
      })
    ).json()) as Saved;
    expect(await seen(2)).toMatchObject({
      change: "content",
      title: "Plan B",
      updatedAt: edited.updatedAt,
    });
    expect((await api(owner, `/api/artifacts/${id}/pin`, { method: "PUT" })).status).toBe(200);
    // Pinning is no edit: the version an editor has open stays current.
    expect(await seen(3)).toMatchObject({
      change: "pinned",
      pinned: true,
      updatedAt: edited.updatedAt,
    });
    expect((await api(owner, `/api/artifacts/${id}`, { method: "DELETE" })).status).toBe(204);
    expect(await seen(4)).toMatchObject({ artifactId: id, change: "deleted", title: "Plan B" });

    // Exactly these four, the same events in both tabs.
    expect(changes(otherTab.events())).toEqual(changes(viewerTab.events()));
    expect(changes(viewerTab.events()).map((e) => e.change)).toEqual([
      "title",
      "content",
      "pinned",
      "deleted",
    ]);
    otherTab.close();
    viewerTab.close();

    // A script following over SSE gets the same events, with the same sequence numbers.
    const replay = await new SseReader(
      await api(viewer, `/api/conversations/${conv.id}/events?after=0`),
    ).done();
    expect(changes(replay)).toEqual(changes(viewerTab.events()));
  });
});
