// A read-only link serves the artifacts made up to the moment it was made: listed in the snapshot
// and downloadable with the token alone; later artifacts, other conversations' artifacts and
// revoked or expired links get nothing.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SharedSnapshot, ShareLink } from "../../../../durable-objects/protocol/sharing";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
} from "../../../../tests/support/helpers";

async function setCreatedAt(artifactId: string, at: number) {
  await env.DB.prepare("UPDATE artifacts SET created_at = ? WHERE id = ?")
    .bind(at, artifactId)
    .run();
}

async function linkedConversation() {
  const owner = await createUser();
  const conv = await createConversation(owner, { title: "Report" });
  const before = await insertArtifact(conv.id, { title: "Plan", content: "# the plan" });
  const created = await api(owner, `/api/conversations/${conv.id}/links`, {
    method: "POST",
    json: { expiresInDays: 7 },
  });
  expect(created.status).toBe(201);
  const link = (await created.json()) as ShareLink;
  await setCreatedAt(before, link.createdAt - 1000);
  const after = await insertArtifact(conv.id, { title: "Later", content: "# private" });
  await setCreatedAt(after, link.createdAt + 1000);
  return { owner, conversationId: conv.id, link, before, after };
}

const download = (token: string, artifactId: string) =>
  api(null, `/api/shared/${token}/artifacts/${artifactId}/download`);

describe("artifacts through a read-only link", () => {
  it("lists and serves the artifacts made before the link, and none made after", async () => {
    const { link, before, after } = await linkedConversation();
    const snapshot = (await (
      await api(null, `/api/shared/${link.token}`)
    ).json()) as SharedSnapshot;
    expect(snapshot.artifacts.map((a) => a.title)).toEqual(["Plan"]);

    const res = await download(link.token, before);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("# the plan");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");

    expect((await download(link.token, after)).status).toBe(404);
  });

  it("serves bytes kept in R2", async () => {
    const { conversationId, link } = await linkedConversation();
    const key = `test/${crypto.randomUUID()}`;
    await env.ARTIFACTS.put(key, new Uint8Array([137, 80, 78, 71]));
    const image = await insertArtifact(conversationId, {
      type: "image",
      title: "chart",
      content: null,
      r2Key: key,
      contentType: "image/png",
    });
    await setCreatedAt(image, link.createdAt - 500);
    const res = await download(link.token, image);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
  });

  it("does not serve another conversation's artifact through the link", async () => {
    const { link } = await linkedConversation();
    const other = await linkedConversation();
    expect((await download(link.token, other.before)).status).toBe(404);
  });

  it("refuses once the link is revoked or expired", async () => {
    const revoked = await linkedConversation();
    const res = await api(
      revoked.owner,
      `/api/conversations/${revoked.conversationId}/links/${revoked.link.id}`,
      { method: "DELETE" },
    );
    expect(res.status).toBe(204);
    expect((await download(revoked.link.token, revoked.before)).status).toBe(404);

    const expired = await linkedConversation();
    await env.DB.prepare("UPDATE share_links SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, expired.link.id)
      .run();
    const gone = await download(expired.link.token, expired.before);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("revoked, it has expired");
  });
});
