import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { secretBox } from "./secret-box";

const key = (id: string) => `${id}:${randomBytes(32).toString("base64url")}`;
const prod = (current: string, old?: string) => ({
  APP_ENV: "production",
  OAUTH_ENCRYPTION_KEY: current,
  ...(old && { OAUTH_ENCRYPTION_OLD_KEYS: old }),
});

it("seals with the current key and names it; the plain text is not in the ciphertext", async () => {
  const box = await secretBox(prod(key("k1")));
  const sealed = await box.seal("rt-secret-refresh-token");
  expect(sealed).toMatch(/^v1\.k1\./);
  expect(sealed).not.toContain("rt-secret");
  expect(await box.open(sealed)).toBe("rt-secret-refresh-token");
});

it("rotation: an old key still opens what it sealed, new writes use the new key", async () => {
  const k1 = key("k1");
  const sealedOld = await (await secretBox(prod(k1))).seal("token");
  const rotated = await secretBox(prod(key("k2"), k1));
  expect(await rotated.open(sealedOld)).toBe("token");
  expect(await rotated.seal("token")).toMatch(/^v1\.k2\./);
  const dropped = await secretBox(prod(key("k2")));
  await expect(dropped.open(sealedOld)).rejects.toThrow(/sealed with key 'k1'/);
});

it("a tampered ciphertext, or one relabelled with another key id, does not open", async () => {
  const k1 = key("k1");
  const box = await secretBox(prod(key("k2"), k1));
  const sealed = await box.seal("token");
  const [, , iv, data] = sealed.split(".");
  await expect(box.open(`v1.k2.${iv}.${data!.slice(0, -2)}AA`)).rejects.toThrow();
  await expect(box.open(`v1.k1.${iv}.${data}`)).rejects.toThrow();
});

it("deployed without a key: a sentence saying how to set one", async () => {
  await expect(secretBox({ APP_ENV: "production" })).rejects.toThrow(
    /OAUTH_ENCRYPTION_KEY is not set.*wrangler secret put/,
  );
  await expect(secretBox(prod("not-a-key"))).rejects.toThrow(/must look like/);
});
