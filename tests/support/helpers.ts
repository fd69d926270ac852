// Test helpers: real users and tokens in the test's D1, and requests through the real worker.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect, inject } from "vitest";
import { sha256Hex } from "../../workers/api/src/auth/crypto";

export const BASE = "http://app.test";

export interface TestUser {
  id: string;
  token: string;
}

export async function createUser(
  name = `user-${crypto.randomUUID().slice(0, 8)}`,
): Promise<TestUser> {
  const id = crypto.randomUUID();
  const token = `tc_test_${crypto.randomUUID()}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, name) VALUES (?, ?)").bind(id, name),
    env.DB.prepare("INSERT INTO api_tokens (id, user_id, token_hash) VALUES (?, ?, ?)").bind(
      crypto.randomUUID(),
      id,
      await sha256Hex(token),
    ),
  ]);
  return { id, token };
}

/** The header that signs a request in as `user` with their API token. */
export const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

export function api(
  user: TestUser | null,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (user) headers.set("authorization", bearer(user).authorization);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(BASE + path, { ...init, headers, body: body ?? null }));
}

/** A new user with server-everything (the api project's) registered as their `everything` server. */
export async function createUserWithEverything(): Promise<TestUser> {
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  if (res.status !== 201)
    throw new Error(`adding server-everything failed: ${res.status} ${await res.text()}`);
  return user;
}

/** Shares the owner's conversation: each user becomes a member with their role. */
export async function addMembers(
  owner: TestUser,
  conversationId: string,
  members: Array<[TestUser, "participant" | "viewer"]>,
): Promise<void> {
  for (const [member, role] of members) {
    const res = await api(owner, `/api/conversations/${conversationId}/members`, {
      method: "PUT",
      json: { user: member.id, role },
    });
    expect(res.status).toBe(200);
  }
}

/**
 * A new owner's new conversation (made with `conversation`), shared with a new participant and a
 * new viewer; their names are `ada-`, `bo-` and `cy-` followed by `suffix`.
 */
export async function sharedConversation(conversation: Record<string, unknown> = {}) {
  const suffix = crypto.randomUUID().slice(0, 8);
  const owner = await createUser(`ada-${suffix}`);
  const participant = await createUser(`bo-${suffix}`);
  const viewer = await createUser(`cy-${suffix}`);
  const conv = await createConversation(owner, conversation);
  await addMembers(owner, conv.id, [
    [participant, "participant"],
    [viewer, "viewer"],
  ]);
  return { owner, participant, viewer, id: conv.id, suffix };
}

/**
 * GET /api/artifacts/:id once D1 holds the artifact: the conversation's outbox writes it there
 * just after the turn that made it ends, so a read right after `turn_ended` may come first.
 */
export async function storedArtifact(user: TestUser, id: string): Promise<Response> {
  for (let i = 0; ; i++) {
    const res = await api(user, `/api/artifacts/${id}`);
    if (res.status !== 404 || i >= 100) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function createConversation(user: TestUser, body: Record<string, unknown> = {}) {
  const res = await api(user, "/api/conversations", { method: "POST", json: body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; title: string; provider: string; model: string };
}

/** Inserts an artifact row directly, as the DO's outbox would. */
export async function insertArtifact(
  conversationId: string,
  fields: {
    type?: string;
    title?: string;
    content?: string | null;
    r2Key?: string | null;
    contentType?: string | null;
    language?: string | null;
  } = {},
) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO artifacts (id, conversation_id, type, title, content, r2_key, content_type, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      id,
      conversationId,
      fields.type ?? "text/markdown",
      fields.title ?? "Notes",
      fields.content ?? "# hi",
      fields.r2Key ?? null,
      fields.contentType ?? null,
      fields.language ?? null,
    )
    .run();
  return id;
}

export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return body.error;
}
