// GET /api/conversations?include=shared: one list of yours and those shared with you, each with
// your role; without it the list stays yours alone (the sidebar's "Shared with you" is separate).
import { describe, expect, it } from "vitest";
import { api, createConversation, createUser } from "../../../../tests/support/helpers";

interface Listed {
  id: string;
  title: string;
  role?: string;
}

async function listed(user: Awaited<ReturnType<typeof createUser>>, query = "") {
  const res = await api(user, `/api/conversations${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Listed[] }).items;
}

describe("the conversation list with shared conversations", () => {
  it("includes conversations shared with you, with your role, only when asked", async () => {
    const owner = await createUser();
    const member = await createUser();
    const stranger = await createUser();
    const mine = await createConversation(member, { title: "Mine" });
    const theirs = await createConversation(owner, { title: "Theirs" });
    const notShared = await createConversation(owner, { title: "Private" });
    const shared = await api(owner, `/api/conversations/${theirs.id}/members`, {
      method: "PUT",
      json: { user: member.id, role: "participant" },
    });
    expect(shared.status).toBe(200);

    const all = await listed(member, "?include=shared");
    expect(all.map((c) => [c.title, c.role]).sort()).toEqual([
      ["Mine", "owner"],
      ["Theirs", "participant"],
    ]);
    expect(all.some((c) => c.id === notShared.id)).toBe(false);

    const own = await listed(member);
    expect(own.map((c) => c.id)).toEqual([mine.id]);
    expect(own[0]?.role).toBeUndefined();

    expect(await listed(stranger, "?include=shared")).toEqual([]);
  });

  it("refuses an unknown include with a clear message", async () => {
    const user = await createUser();
    const res = await api(user, "/api/conversations?include=everything");
    expect(res.status).toBe(400);
  });
});
