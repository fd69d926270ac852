// Sharing over REST: what the owner, a participant, a viewer and a stranger may each do on every
// route of a conversation, read-only links, and the list of conversations shared with you.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  insertArtifact,
  type TestUser,
} from "../../../../tests/support/helpers";
import { upload } from "../../../../tests/support/attachment-fixtures";
import type {
  MemberList,
  SharedSnapshot,
  ShareLink,
} from "../../../../durable-objects/protocol/sharing";

interface Cast {
  owner: TestUser;
  participant: TestUser;
  viewer: TestUser;
  stranger: TestUser;
  conversationId: string;
  artifactId: string;
}

async function share(owner: TestUser, id: string, user: string, role: string) {
  return api(owner, `/api/conversations/${id}/members`, {
    method: "PUT",
    json: { user, role },
  });
}

async function cast(): Promise<Cast> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const owner = await createUser(`owner-${suffix}`);
  const participant = await createUser(`participant-${suffix}`);
  const viewer = await createUser(`viewer-${suffix}`);
  const stranger = await createUser(`stranger-${suffix}`);
  const conv = await createConversation(owner, { title: "Shared plans" });
  expect((await share(owner, conv.id, `participant-${suffix}`, "participant")).status).toBe(200);
  expect((await share(owner, conv.id, viewer.id, "viewer")).status).toBe(200);
  const artifactId = await insertArtifact(conv.id, { content: "# notes" });
  return { owner, participant, viewer, stranger, conversationId: conv.id, artifactId };
}

type Who = "owner" | "participant" | "viewer" | "stranger";

/** Each route, and the status each role gets (the request is valid, so success or refusal). */
function routes(c: Cast): Array<{
  name: string;
  call: (u: TestUser) => Promise<Response>;
  expect: Record<Who, number>;
}> {
  const id = c.conversationId;
  const read = { owner: 200, participant: 200, viewer: 200, stranger: 404 };
  const write = { owner: 200, participant: 200, viewer: 403, stranger: 404 };
  const manage = { owner: 200, participant: 403, viewer: 403, stranger: 404 };
  const creates = { owner: 201, participant: 201, viewer: 403, stranger: 404 };
  return [
    { name: "GET conversation", call: (u) => api(u, `/api/conversations/${id}`), expect: read },
    {
      name: "GET messages",
      call: (u) => api(u, `/api/conversations/${id}/messages`),
      expect: read,
    },
    {
      name: "GET artifacts",
      call: (u) => api(u, `/api/conversations/${id}/artifacts`),
      expect: read,
    },
    { name: "GET artifact", call: (u) => api(u, `/api/artifacts/${c.artifactId}`), expect: read },
    {
      name: "download artifact",
      call: (u) => api(u, `/api/artifacts/${c.artifactId}/download`),
      expect: read,
    },
    {
      name: "GET members",
      call: (u) => api(u, `/api/conversations/${id}/members`),
      expect: read,
    },
    {
      name: "POST ws-ticket",
      call: (u) => api(u, `/api/conversations/${id}/ws-ticket`, { method: "POST" }),
      expect: read,
    },
    { name: "export", call: (u) => api(u, `/api/conversations/${id}/export`), expect: read },
    { name: "GET usage", call: (u) => api(u, `/api/conversations/${id}/usage`), expect: write },
    {
      name: "attach a file",
      call: (u) => upload(u, id, "notes.txt", "for the next message"),
      expect: creates,
    },
    {
      name: "POST approval (unknown id: 404 once allowed)",
      call: (u) =>
        api(u, `/api/conversations/${id}/approvals/nope`, {
          method: "POST",
          json: { decision: "approve" },
        }),
      expect: { ...write, owner: 404, participant: 404 },
    },
    {
      name: "GET alternatives",
      call: (u) => api(u, `/api/conversations/${id}/alternatives`),
      expect: read,
    },
    {
      name: "POST branch (unknown message: 404 once allowed)",
      call: (u) =>
        api(u, `/api/conversations/${id}/branch`, { method: "POST", json: { messageId: "nope" } }),
      expect: { ...manage, owner: 404 },
    },
    { name: "GET audit", call: (u) => api(u, `/api/conversations/${id}/audit`), expect: manage },
    { name: "GET links", call: (u) => api(u, `/api/conversations/${id}/links`), expect: manage },
    {
      name: "PATCH conversation",
      call: (u) => api(u, `/api/conversations/${id}`, { method: "PATCH", json: { title: "x" } }),
      expect: manage,
    },
    {
      name: "pin artifact",
      call: (u) => api(u, `/api/artifacts/${c.artifactId}/pin`, { method: "PUT" }),
      expect: manage,
    },
    {
      name: "unpin artifact",
      call: (u) => api(u, `/api/artifacts/${c.artifactId}/pin`, { method: "DELETE" }),
      expect: manage,
    },
    {
      name: "save an edited artifact",
      call: (u) =>
        api(u, `/api/artifacts/${c.artifactId}`, { method: "PATCH", json: { content: "# v2" } }),
      expect: manage,
    },
    {
      name: "MCP prompts",
      call: (u) => api(u, `/api/conversations/${id}/mcp/prompts`),
      expect: manage,
    },
  ];
}

describe("sharing a conversation: every route checks the role", () => {
  it("owner, participant, viewer and stranger each get what their role allows", async () => {
    const c = await cast();
    const people: Record<Who, TestUser> = {
      owner: c.owner,
      participant: c.participant,
      viewer: c.viewer,
      stranger: c.stranger,
    };
    const got: string[] = [];
    const wanted: string[] = [];
    for (const route of routes(c)) {
      for (const who of ["owner", "participant", "viewer", "stranger"] as const) {
        const res = await route.call(people[who]);
        got.push(`${route.name} as ${who}: ${res.status}`);
        wanted.push(`${route.name} as ${who}: ${route.expect[who]}`);
        await res.body?.cancel();
      }
    }
    expect(got).toEqual(wanted);
  });

  it("a viewer cannot send over SSE, and is told why; a participant's message carries their name", async () => {
    const c = await cast();
    const refused = await api(c.viewer, `/api/conversations/${c.conversationId}/chat`, {
      method: "POST",
      json: { clientMessageId: "v1", text: "may I?" },
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toMatch(/viewer/);

    const sent = await api(c.participant, `/api/conversations/${c.conversationId}/chat`, {
      method: "POST",
      json: { clientMessageId: "p1", text: "hello from the participant" },
    });
    expect(sent.status).toBe(200);
    await sent.text();
    const name = await env.DB.prepare("SELECT name FROM users WHERE id = ?")
      .bind(c.participant.id)
      .first<{ name: string }>();
    await eventually(async () => {
      const res = await api(c.viewer, `/api/conversations/${c.conversationId}/messages`);
      const body = (await res.json()) as {
        items: Array<{ role: string; author?: { id: string; name: string } }>;
      };
      expect(body.items[0]?.author).toEqual({ id: c.participant.id, name: name!.name });
    });
  });

  it("the owner manages members: unknown names are explained, removal ends access", async () => {
    const c = await cast();
    const id = c.conversationId;
    const unknown = await share(c.owner, id, "nobody-by-this-name", "viewer");
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/No user named 'nobody-by-this-name'/);
    expect((await share(c.participant, id, c.stranger.id, "viewer")).status).toBe(403);

    const list = (await (
      await api(c.viewer, `/api/conversations/${id}/members`)
    ).json()) as MemberList;
    expect(list.role).toBe("viewer");
    expect(list.owner.id).toBe(c.owner.id);
    expect(list.members.map((m) => [m.user.id, m.role])).toEqual([
      [c.participant.id, "participant"],
      [c.viewer.id, "viewer"],
    ]);

    // Promote the viewer, then remove them.
    expect((await share(c.owner, id, c.viewer.id, "participant")).status).toBe(200);
    expect((await api(c.viewer, `/api/conversations/${id}/usage`)).status).toBe(200);
    const removed = await api(c.owner, `/api/conversations/${id}/members/${c.viewer.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    // Told they were removed (former-member-routes.test.ts), not that it does not exist.
    expect((await api(c.viewer, `/api/conversations/${id}`)).status).toBe(403);

    // A participant may leave on their own.
    const left = await api(c.participant, `/api/conversations/${id}/members/${c.participant.id}`, {
      method: "DELETE",
    });
    expect(left.status).toBe(204);
    expect((await api(c.participant, `/api/conversations/${id}`)).status).toBe(403);
  });

  it("conversations shared with you are listed with their owner and your role", async () => {
    const c = await cast();
    const res = await api(c.viewer, "/api/shared-with-me");
    const body = (await res.json()) as {
      items: Array<{
        conversation: { id: string; title: string };
        role: string;
        owner: { id: string };
      }>;
    };
    expect(body.items.map((i) => [i.conversation.id, i.role, i.owner.id])).toEqual([
      [c.conversationId, "viewer", c.owner.id],
    ]);
    expect((await (await api(c.stranger, "/api/shared-with-me")).json()) as unknown).toEqual({
      items: [],
    });
  });

  it("the user directory finds people by the start of their name, never yourself", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const me = await createUser(`dir-${suffix}-me`);
    const other = await createUser(`dir-${suffix}-other`);
    const res = await api(me, `/api/users?q=dir-${suffix}`);
    expect(((await res.json()) as { items: unknown[] }).items).toEqual([
      { id: other.id, name: `dir-${suffix}-other` },
    ]);
    // Case aside, and as long as the API takes (100 characters; D1 refused LIKE past 50 bytes).
    const upper = await api(me, `/api/users?q=DIR-${suffix}-OT`);
    expect(((await upper.json()) as { items: unknown[] }).items).toHaveLength(1);
    const long = await api(me, `/api/users?q=${"b".repeat(100)}`);
    expect(long.status).toBe(200);
    expect(((await long.json()) as { items: unknown[] }).items).toEqual([]);
  });
});

describe("read-only links", () => {
  it("show a snapshot to anyone until revoked; later messages are not in it", async () => {
    const c = await cast();
    const id = c.conversationId;
    await seedMessage(id, 1, "before the link", c.owner.id);
    const created = await api(c.owner, `/api/conversations/${id}/links`, {
      method: "POST",
      json: { expiresInDays: 7 },
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as ShareLink;
    expect(link.url).toMatch(/\/shared\/.+/);
    expect(link.expiresAt).toBeGreaterThan(Date.now());
    await seedMessage(id, 2, "after the link", c.owner.id);

    const seen = await api(null, `/api/shared/${link.token}`);
    expect(seen.status).toBe(200);
    const snapshot = (await seen.json()) as SharedSnapshot;
    expect(snapshot.title).toBe("Shared plans");
    expect(snapshot.owner.id).toBe(c.owner.id);
    expect(snapshot.messages.map((m) => m.content)).toEqual([
      [{ type: "text", text: "before the link" }],
    ]);
    expect(snapshot.messages[0]?.author?.id).toBe(c.owner.id);

    // A participant may not make or revoke links; a forged token shows nothing.
    expect(
      (await api(c.participant, `/api/conversations/${id}/links`, { method: "POST", json: {} }))
        .status,
    ).toBe(403);
    const forged = `${link.token.split(".")[0]}.AAAA`;
    expect((await api(null, `/api/shared/${forged}`)).status).toBe(404);

    const revoked = await api(c.owner, `/api/conversations/${id}/links/${link.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    const gone = await api(null, `/api/shared/${link.token}`);
    expect(gone.status).toBe(404);
    expect((await errorOf(gone)).message).toMatch(/revoked/);
    expect(
      ((await (await api(c.owner, `/api/conversations/${id}/links`)).json()) as { items: [] })
        .items,
    ).toEqual([]);
  });

  it("stop working once expired", async () => {
    const c = await cast();
    const created = await api(c.owner, `/api/conversations/${c.conversationId}/links`, {
      method: "POST",
      json: { expiresInDays: 1 },
    });
    const link = (await created.json()) as ShareLink;
    await env.DB.prepare("UPDATE share_links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, link.id)
      .run();
    expect((await api(null, `/api/shared/${link.token}`)).status).toBe(404);
  });
});

async function seedMessage(conversationId: string, seq: number, text: string, authorId: string) {
  await env.DB.prepare(
    "INSERT INTO messages (id, conversation_id, role, content, seq, author_id) VALUES (?, ?, 'user', ?, ?, ?)",
  )
    .bind(
      crypto.randomUUID(),
      conversationId,
      JSON.stringify([{ type: "text", text }]),
      seq,
      authorId,
    )
    .run();
}

async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
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
