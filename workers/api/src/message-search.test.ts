import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../../tests/support/helpers";

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await createUser("alice");
  bob = await createUser("bob");
});

let seq = 0;
/** Writes a message row the way the Conversation DO's outbox does (insert, or upsert on id). */
async function putMessage(conversationId: string, text: string, id = crypto.randomUUID()) {
  const content = JSON.stringify([
    { type: "reasoning", text: "hidden reasoning about zeppelins" },
    { type: "text", text },
  ]);
  await env.DB.prepare(
    `INSERT INTO messages (id, conversation_id, role, content, seq) VALUES (?, ?, 'assistant', ?, ?)
     ON CONFLICT (id) DO UPDATE SET content = excluded.content`,
  )
    .bind(id, conversationId, content, ++seq)
    .run();
  return id;
}

async function search(user: TestUser, q: string) {
  const res = await api(user, `/api/conversations?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  const body: { items: Array<{ id: string; title: string; snippet?: string }> } = await res.json();
  return body.items;
}

describe("searching conversations finds words inside messages", () => {
  it("finds a word that appears only in a message, with a snippet, and only the user's own", async () => {
    const mine = await createConversation(alice, { title: "Plant notes" });
    const theirs = await createConversation(bob, { title: "Bob's plants" });
    await putMessage(mine.id, "Chlorophyll absorbs mostly blue and red light.");
    await putMessage(theirs.id, "Chlorophyll is green.");

    const found = await search(alice, "chlorophyll");
    expect(found.map((c) => c.id)).toEqual([mine.id]);
    expect(found[0]?.snippet).toContain("Chlorophyll absorbs");
    expect(await search(bob, "absorbs")).toEqual([]);
  });

  it("matches the start of a word as it is typed and ignores query syntax", async () => {
    const c = await createConversation(alice, { title: "Untitled" });
    await putMessage(c.id, "Photosynthesis needs water.");
    expect((await search(alice, "photosyn")).map((x) => x.id)).toEqual([c.id]);
    expect((await search(alice, 'photosyn" (water:')).map((x) => x.id)).toEqual([c.id]);
    expect(await search(alice, '"*:')).toEqual([]);
  });

  it("does not index reasoning or JSON keys, only the text a reader sees", async () => {
    const c = await createConversation(alice, { title: "Airships" });
    await putMessage(c.id, "Blimps float.");
    expect(await search(alice, "zeppelins")).toEqual([]);
    expect(await search(alice, "reasoning")).toEqual([]);
  });

  it("follows a message as it is rewritten and when its conversation is deleted", async () => {
    const c = await createConversation(alice, { title: "Draft" });
    const id = await putMessage(c.id, "An early draft about quasars.");
    await putMessage(c.id, "The final answer is about pulsars.", id);
    expect(await search(alice, "quasars")).toEqual([]);
    expect((await search(alice, "pulsars")).map((x) => x.id)).toEqual([c.id]);

    const res = await api(alice, `/api/conversations/${c.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await search(alice, "pulsars")).toEqual([]);
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'pulsars'",
    ).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("still finds conversations by title", async () => {
    const c = await createConversation(alice, { title: "Tidal forces" });
    expect((await search(alice, "tidal")).map((x) => x.id)).toEqual([c.id]);
  });

  it("finds a long title typed whole, and takes % and _ as the characters they are", async () => {
    const title = "Notes on the 2026 survey of coastal erosion_rates: 40% faster than in 1990";
    const c = await createConversation(alice, { title });
    await createConversation(alice, { title: "Notes on the 2026 survey of coastal erosionXrates" });
    // Over D1's 50-byte limit for a LIKE pattern, which answered these with a 500.
    expect((await search(alice, title.toUpperCase())).map((x) => x.id)).toEqual([c.id]);
    expect((await search(alice, "erosion_rates: 40%")).map((x) => x.id)).toEqual([c.id]);
    expect(await search(alice, "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14")).toEqual([]);
  });
});
