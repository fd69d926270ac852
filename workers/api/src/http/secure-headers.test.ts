// What a browser that opens an API answer directly (a tab, a frame) is allowed to do with it.
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  insertArtifact,
} from "../../../../tests/support/helpers";

const csp = (res: Response) => res.headers.get("content-security-policy") ?? "";

describe("API answers", () => {
  it("are data, not pages: no script, no frame, no form, even for an error or an export", async () => {
    const user = await createUser();
    const { id } = await createConversation(user, { title: "<script>alert(1)</script>" });
    for (const res of [
      await api(user, "/api/health"),
      await api(user, `/api/conversations/${id}`),
      await api(user, `/api/conversations/${id}/export`),
      await api(user, "/api/nowhere/<img src=x onerror=alert(1)>"),
      await api(null, "/api/conversations"),
      await api(user, "/v1/models"),
    ]) {
      await res.arrayBuffer();
      expect(csp(res)).toContain("default-src 'none'");
      expect(csp(res)).toContain("frame-ancestors 'none'");
      expect(csp(res)).toMatch(/\bsandbox\b/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("keep a download's own policy, which lets an image show in the page", async () => {
    const user = await createUser();
    const { id } = await createConversation(user);
    const artifactId = await insertArtifact(id, { type: "text/markdown", content: "# hi" });
    const res = await api(user, `/api/artifacts/${artifactId}/download`);
    await res.arrayBuffer();
    expect(csp(res)).toBe(
      "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    );
  });
});
