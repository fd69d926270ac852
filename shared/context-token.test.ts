import { describe, expect, it } from "vitest";
import { signContextToken, verifyContextToken } from "./context-token";

const claims = { conversationId: "conv-1", userId: "user-1" };

describe("context tokens", () => {
  it("verify with the secret they were signed with, and carry their claims", async () => {
    const now = Date.UTC(2026, 0, 1);
    const token = await signContextToken("s3cret", { ...claims, ttlSeconds: 60 }, now);
    expect(await verifyContextToken("s3cret", token, now)).toEqual({
      ok: true,
      claims: { ...claims, exp: now / 1000 + 60 },
    });
  });

  it("refuse another secret, a changed payload, expiry and junk", async () => {
    const now = Date.UTC(2026, 0, 1);
    const token = await signContextToken("s3cret", claims, now);
    expect(await verifyContextToken("other", token, now)).toMatchObject({
      ok: false,
      reason: /signature/,
    });
    const [, sig] = token.split(".");
    const forgedBody = btoa(
      JSON.stringify({ ...claims, conversationId: "conv-2", exp: now / 1000 + 900 }),
    )
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(await verifyContextToken("s3cret", `${forgedBody}.${sig}`, now)).toMatchObject({
      ok: false,
    });
    // Default lifetime is 15 minutes.
    expect(await verifyContextToken("s3cret", token, now + 899_000)).toMatchObject({ ok: true });
    expect(await verifyContextToken("s3cret", token, now + 900_000)).toMatchObject({
      ok: false,
      reason: /expired/,
    });
    for (const junk of ["", "a", "a.b.c", "!!.??", `${token}x`])
      expect(await verifyContextToken("s3cret", junk, now), junk).toMatchObject({ ok: false });
    expect(await verifyContextToken("", token, now)).toMatchObject({
      ok: false,
      reason: /GRAPH_CONTEXT_SECRET/,
    });
  });

  it("cannot be signed without a secret", async () => {
    await expect(signContextToken("", claims)).rejects.toThrow(/GRAPH_CONTEXT_SECRET/);
  });
});
