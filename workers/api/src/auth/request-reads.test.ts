// How many D1 reads authenticating a request costs, and which wait for which. The recorder notes
// only the trips of the test's own user (keysOf): the binding is shared with every object still
// at work in this runtime.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";
import { keysOf, recordingD1 } from "../../../../tests/support/recording-d1";
import { TestSocket } from "../../../../tests/support/ws-client";

const original = env.DB;
afterEach(() => {
  (env as { DB: D1Database }).DB = original;
});

const upgrade = (user: TestUser, conversationId: string) =>
  exports.default.fetch(`http://app.test/api/conversations/${conversationId}/ws`, {
    headers: { upgrade: "websocket", authorization: `Bearer ${user.token}` },
  });

it("a socket's handshake reads the caller's role beside the check of their credential, not after it", async () => {
  const user = await createUser();
  const conv = await createConversation(user);
  const recording = recordingD1(original, await keysOf(original, user, conv.id));
  (env as { DB: D1Database }).DB = recording.db;
  const ws = await TestSocket.openWith(
    conv.id,
    { authorization: `Bearer ${user.token}` },
    "?resume=0",
  );
  await ws.until((f) => f.some((x) => x.type === "synced"));
  ws.close();
  const credential = recording.trips.find((t) => t.sql.some((s) => /FROM "?api_tokens/.test(s)));
  const role = recording.trips.find((t) => t.sql.some((s) => /'owner' ELSE m\.role/.test(s)));
  expect(credential).toBeDefined();
  expect(role).toBeDefined();
  expect(role!.started).toBeLessThan(credential!.answered!);
});

it("a handshake lets in the owner and a member with their role, and tells a stranger 404", async () => {
  const suffix = crypto.randomUUID().slice(0, 8);
  const owner = await createUser(`owner-${suffix}`);
  const viewer = await createUser(`viewer-${suffix}`);
  const stranger = await createUser(`stranger-${suffix}`);
  const conv = await createConversation(owner);
  const shared = await api(owner, `/api/conversations/${conv.id}/members`, {
    method: "PUT",
    json: { user: `viewer-${suffix}`, role: "viewer" },
  });
  expect(shared.status).toBeLessThan(300);

  expect((await upgrade(owner, conv.id)).status).toBe(101);
  expect((await upgrade(stranger, conv.id)).status).toBe(404);
  expect((await upgrade(stranger, crypto.randomUUID())).status).toBe(404);
  // The viewer's socket opens, and its sends are refused as a viewer's.
  const ws = await TestSocket.open(viewer, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "v1", text: "may I?" });
  await ws.until((f) => f.some((x) => x.type === "frame_error"));
  const refusal = ws.frames.find((f) => f.type === "frame_error");
  expect(refusal).toMatchObject({ error: { code: "forbidden" } });
  ws.close();
});

it("a request on a path two auth middlewares match (POST /api/conversations) reads the token once", async () => {
  const user = await createUser();
  const recording = recordingD1(original, await keysOf(original, user));
  (env as { DB: D1Database }).DB = recording.db;
  const created = await api(user, "/api/conversations", { method: "POST", json: {} });
  expect(created.status).toBe(201);
  const tokenReads = recording.trips.filter((t) => t.sql.some((s) => /from "api_tokens"/i.test(s)));
  expect(tokenReads).toHaveLength(1);
});

it("each signed-in prefix asks for a credential at its bare path too (one `/*` registration covers it)", async () => {
  for (const path of ["/api/conversations", "/api/mcp-servers", "/api/providers", "/api/tokens"]) {
    const res = await exports.default.fetch(`http://app.test${path}`);
    expect([path, res.status]).toEqual([path, 401]);
  }
});

it("a token's once-a-minute use mark does not hold up the request's own reads", async () => {
  const user = await createUser();
  await original
    .prepare("UPDATE api_tokens SET last_used_at = ? WHERE token_hash IS NOT NULL AND user_id = ?")
    .bind(Date.now() - 120_000, user.id)
    .run();
  const recording = recordingD1(original, await keysOf(original, user));
  (env as { DB: D1Database }).DB = recording.db;
  expect((await api(user, "/api/conversations")).status).toBe(200);
  const sqlOf = (t: (typeof recording.trips)[number]) => t.sql.join(" ");
  const mark = recording.trips.find((t) => /^update "api_tokens"/i.test(sqlOf(t)));
  const listing = recording.trips.find((t) => /from "conversations"/i.test(sqlOf(t)));
  expect(mark).toBeDefined();
  expect(listing).toBeDefined();
  // The listing went out before the mark was answered: the request did not wait for it.
  expect(listing!.started).toBeLessThan(mark!.answered!);
  // And the mark was written all the same.
  const used = await original
    .prepare("SELECT last_used_at AS t FROM api_tokens WHERE user_id = ?")
    .bind(user.id)
    .first<number>("t");
  expect(Date.now() - used!).toBeLessThan(10_000);
});
