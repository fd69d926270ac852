// A branch shares its origin's artifacts by reference: new rows over the same R2 bytes, which
// stay for as long as any conversation still points at them.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, createUser } from "../../../tests/support/helpers";
import { attach } from "../../../tests/support/attachment-fixtures";
import { fold, TestSocket, turnEnded } from "../../../tests/support/ws-client";
import type { Conversation } from "../../protocol/rest";
import type { Conversation as ConversationObject } from "../conversation";

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (ok(v) || i > 100) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("artifacts of a branch", () => {
  it("point at the origin's bytes, which outlive either conversation until both are deleted", async () => {
    const user = await createUser();
    const origin = await createConversation(user);
    const ws = await TestSocket.open(user, origin.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "answer me twice" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const messages = await eventually(
      async () =>
        (
          (await (await api(user, `/api/conversations/${origin.id}/messages`)).json()) as {
            items: Array<{ id: string; role: string }>;
          }
        ).items,
      (items) => items.length === 2,
    );
    const answerId = messages[1]!.id;
    // An image the answer made, as the DO's artifact saver stores one.
    const artifactId = crypto.randomUUID();
    const key = `conversations/${origin.id}/artifacts/${artifactId}`;
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    await env.ARTIFACTS.put(key, bytes);
    await env.DB.prepare(
      "INSERT INTO artifacts (id, conversation_id, message_id, type, title, r2_key, content_type, size) VALUES (?, ?, ?, 'image/png', 'Chart', ?, 'image/png', ?)",
    )
      .bind(artifactId, origin.id, answerId, key, bytes.length)
      .run();

    const res = await api(user, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: answerId },
    });
    expect(res.status).toBe(201);
    const branch = (await res.json()) as Conversation;
    const listed = (await (
      await api(user, `/api/conversations/${branch.id}/artifacts`)
    ).json()) as { items: Array<{ id: string; title: string; messageId: string | null }> };
    expect(listed.items).toHaveLength(1);
    const copy = listed.items[0]!;
    expect(copy.id).not.toBe(artifactId);
    expect(copy.messageId).not.toBeNull();
    const row = await env.DB.prepare("SELECT r2_key FROM artifacts WHERE id = ?")
      .bind(copy.id)
      .first<{ r2_key: string }>();
    expect(row?.r2_key).toBe(key);
    // Nothing was copied in R2.
    const objects = await env.ARTIFACTS.list({ prefix: `conversations/${branch.id}/` });
    expect(objects.objects).toHaveLength(0);

    // The origin goes; the branch still downloads the bytes.
    expect((await api(user, `/api/conversations/${origin.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    const download = await api(user, `/api/artifacts/${copy.id}/download`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);

    // The last conversation that references them takes them along.
    expect((await api(user, `/api/conversations/${branch.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect(await env.ARTIFACTS.get(key)).toBeNull();
  }, 60_000);

  it("keep their earlier versions and their current title in the branch", async () => {
    const user = await createUser();
    const origin = await createConversation(user);
    const ws = await TestSocket.open(user, origin.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({
      type: "send",
      clientMessageId: crypto.randomUUID(),
      text: "make a snippet to branch",
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    type Listed = { items: Array<{ id: string; title: string }> };
    const listed = await eventually(
      async () =>
        (await (await api(user, `/api/conversations/${origin.id}/artifacts`)).json()) as Listed,
      (l) => l.items.length === 1,
    );
    const snippet = listed.items[0]!.id;
    for (const json of [{ content: "v2" }, { content: "v3" }, { title: "Renamed snippet" }])
      expect((await api(user, `/api/artifacts/${snippet}`, { method: "PATCH", json })).status).toBe(
        200,
      );
    type Versions = { items: Array<{ id: string; savedAt: number; content?: string }> };
    const versionsOf = async (id: string) => {
      const list = (await (await api(user, `/api/artifacts/${id}/versions`)).json()) as Versions;
      return Promise.all(
        list.items.map(
          async (v) =>
            (await (await api(user, `/api/artifacts/${id}/versions/${v.id}`)).json()) as {
              content: string;
              savedAt: number;
            },
        ),
      );
    };
    const history = await versionsOf(snippet);
    expect(history.map((v) => v.content)).toEqual(["v2", "v1"]);

    const messages = (
      (await (await api(user, `/api/conversations/${origin.id}/messages`)).json()) as {
        items: Array<{ id: string }>;
      }
    ).items;
    const res = await api(user, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: messages[1]!.id },
    });
    expect(res.status).toBe(201);
    const branch = (await res.json()) as Conversation;
    const copy = (
      (await (await api(user, `/api/conversations/${branch.id}/artifacts`)).json()) as Listed
    ).items[0]!;
    expect(copy.title).toBe("Renamed snippet");
    // "Earlier versions" in the branch lists what the origin's lists, with the same dates.
    expect(
      (await versionsOf(copy.id)).map((v) => ({ content: v.content, savedAt: v.savedAt })),
    ).toEqual(history.map((v) => ({ content: v.content, savedAt: v.savedAt })));
    // The answer's button in the branch opens the copy and reads its title now.
    const copied = (
      (await (await api(user, `/api/conversations/${branch.id}/messages`)).json()) as {
        items: Array<{ content: Array<{ type: string; artifactId?: string; title?: string }> }>;
      }
    ).items[1]!;
    expect(copied.content.find((p) => p.type === "artifact")).toMatchObject({
      artifactId: copy.id,
      title: "Renamed snippet",
    });
  }, 60_000);

  it("a branch shows an artifact deleted in its origin as deleted, not as a button that 404s", async () => {
    const user = await createUser();
    const origin = await createConversation(user);
    const ws = await TestSocket.openSynced(user, origin.id);
    ws.send({
      type: "send",
      clientMessageId: crypto.randomUUID(),
      text: "make a snippet to branch",
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    type Listed = { items: Array<{ id: string }> };
    const snippet = (
      await eventually(
        async () =>
          (await (await api(user, `/api/conversations/${origin.id}/artifacts`)).json()) as Listed,
        (l) => l.items.length === 1,
      )
    ).items[0]!.id;
    expect((await api(user, `/api/artifacts/${snippet}`, { method: "DELETE" })).status).toBe(204);
    const answer = (
      (await (await api(user, `/api/conversations/${origin.id}/messages`)).json()) as Listed
    ).items[1]!.id;
    const res = await api(user, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: answer },
    });
    expect(res.status).toBe(201);
    const branch = (await res.json()) as Conversation;

    // What the branch's page shows (its socket's replay): the button says deleted.
    const tab = await TestSocket.openSynced(user, branch.id);
    const shown = fold(tab.events()).messages.flatMap((m) => m.content);
    tab.close();
    expect(shown.find((p) => p.type === "artifact")).toMatchObject({
      title: "Snippet",
      deleted: true,
    });
  }, 60_000);

  it("a question's attached file opens the branch's own copy", async () => {
    const user = await createUser();
    const origin = await createConversation(user);
    const file = await attach(user, origin.id, "notes.txt", "tide tables for the branch");
    const ws = await TestSocket.openSynced(user, origin.id);
    ws.send({
      type: "send",
      clientMessageId: crypto.randomUUID(),
      text: "answer me twice",
      attachments: [file],
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    type Page = {
      items: Array<{ id: string; content: Array<{ type: string; artifactId?: string }> }>;
    };
    const messages = await eventually(
      async () =>
        ((await (await api(user, `/api/conversations/${origin.id}/messages`)).json()) as Page)
          .items,
      (items) => items.length === 2,
    );
    const res = await api(user, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: messages[1]!.id },
    });
    expect(res.status).toBe(201);
    const branch = (await res.json()) as Conversation;
    const copied = (
      (await (await api(user, `/api/conversations/${branch.id}/messages`)).json()) as Page
    ).items[0]!;
    const part = copied.content.find((p) => p.type === "attachment");
    const copies = (
      (await (await api(user, `/api/conversations/${branch.id}/artifacts`)).json()) as {
        items: Array<{ id: string }>;
      }
    ).items.map((a) => a.id);
    // The branch's own copy, which the branch's model loads and its members may open.
    expect(copies).toContain(part?.artifactId);
    const download = await api(user, `/api/artifacts/${part!.artifactId}/download`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("tide tables for the branch");
  }, 60_000);

  it("a branch made while the origin's answer still waits for D1 holds its artifact", async () => {
    const user = await createUser();
    const origin = await createConversation(user);
    // A real D1 failure while the answer is written: its message and artifact wait in the
    // origin's outbox, to be retried later.
    await env.DB.exec("ALTER TABLE messages RENAME TO messages_unavailable");
    const ws = await TestSocket.openSynced(user, origin.id);
    ws.send({
      type: "send",
      clientMessageId: crypto.randomUUID(),
      text: "make a snippet to branch",
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(origin.id));
    const answer = await runInDurableObject(stub, async (instance: ConversationObject, state) => {
      // D1 is back, and the retry has not come yet (its backoff grows to a minute).
      await env.DB.exec("ALTER TABLE messages_unavailable RENAME TO messages");
      await state.storage.deleteAlarm();
      expect(instance.store.outboxSize()).toBeGreaterThan(0);
      return instance.store.messages().at(-1)!.id;
    });

    const res = await api(user, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: answer },
    });
    expect(res.status).toBe(201);
    const branch = (await res.json()) as Conversation;
    const copies = (
      (await (await api(user, `/api/conversations/${branch.id}/artifacts`)).json()) as {
        items: Array<{ id: string; title: string }>;
      }
    ).items;
    expect(copies.map((a) => a.title)).toEqual(["Snippet"]);
    // The branch's answer opens its own copy.
    const copied = (
      (await (await api(user, `/api/conversations/${branch.id}/messages`)).json()) as {
        items: Array<{ content: Array<{ type: string; artifactId?: string }> }>;
      }
    ).items[1]!;
    expect(copied.content.find((p) => p.type === "artifact")?.artifactId).toBe(copies[0]!.id);
  }, 60_000);
});
