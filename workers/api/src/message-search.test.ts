import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  addMembers,
  api,
  createConversation,
  createUser,
  type TestUser,
} from "../../../tests/support/helpers";

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

async function search(user: TestUser, q: string, include = "") {
  const res = await api(user, `/api/conversations?q=${encodeURIComponent(q)}${include}`);
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

describe("searching conversations shared with you", () => {
  const BUDGET_LINE =
    "_Stopped early to stay within this turn's cost budget ($0.0110 of $0.0300 spent so far)._";
  const shared = (user: TestUser, q: string) => search(user, q, "&include=shared");
  const cast = async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const [owner, viewer, participant] = await Promise.all(
      ["ow", "vi", "pa"].map((who) => createUser(`${who}-${suffix}`)),
    );
    return { owner: owner!, viewer: viewer!, participant: participant! };
  };

  it("a viewer's snippet keeps an answer's budget line without its figures; a participant's keeps them", async () => {
    const { owner, viewer, participant } = await cast();
    const c = await createConversation(owner, { title: "Moon phases" });
    await addMembers(owner, c.id, [
      [viewer, "viewer"],
      [participant, "participant"],
    ]);
    await putMessage(c.id, `Waxing gibbous.\n\n${BUDGET_LINE}`);

    const seen = await shared(viewer, "stopped early");
    expect(seen.map((x) => x.id)).toEqual([c.id]);
    expect(seen[0]?.snippet).toContain("Stopped early to stay within this turn's cost budget");
    expect(seen[0]?.snippet).not.toMatch(/0\.0110|0\.0300|\$/);
    // Words elsewhere in the answer are found as before.
    expect((await shared(viewer, "gibbous"))[0]?.snippet).toContain("Waxing gibbous");
    // Usage is a participant's to see (and the owner's): their snippet keeps the figures.
    expect((await shared(participant, "stopped early"))[0]?.snippet).toContain("$0.0110");
    expect((await search(owner, "stopped early"))[0]?.snippet).toContain("$0.0110");
  });

  it("a viewer does not find a conversation by the figures of its budget lines", async () => {
    const { owner, viewer } = await cast();
    const c = await createConversation(owner, { title: "Tides" });
    await addMembers(owner, c.id, [[viewer, "viewer"]]);
    await putMessage(c.id, `Spring tides follow new and full moons.\n\n${BUDGET_LINE}`);
    expect(await shared(viewer, "0.0110")).toEqual([]);
    expect(await shared(viewer, "spent so far")).toEqual([]);
    expect((await search(owner, "0.0110")).map((x) => x.id)).toEqual([c.id]);
    // Found by its title, it is listed, without a snippet of the figures.
    const byTitle = await shared(viewer, "tides");
    expect(byTitle.map((x) => x.id)).toEqual([c.id]);
    expect(byTitle[0]?.snippet ?? "").not.toContain("0.0110");
  });
});
