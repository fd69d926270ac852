import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { RateLimitCounter } from "./rate-limit-counter";

const counterFor = (key: string) =>
  env.RATE_LIMIT_COUNTER.get(env.RATE_LIMIT_COUNTER.idFromName(`test:${key}`));

/** The count on disk, as a restarted counter would read it. */
const storedHits = (stub: DurableObjectStub<RateLimitCounter>) =>
  runInDurableObject(stub, (_instance, state) => {
    const table = state.storage.sql
      .exec("SELECT 1 FROM sqlite_master WHERE name = 'rate_window'")
      .toArray();
    if (table.length === 0) return null;
    return state.storage.sql.exec<{ hits: number }>("SELECT hits FROM rate_window").one().hits;
  });

describe("the rate limit counter", () => {
  it("refuses past the limit and says when the window ends; refused hits are not counted", async () => {
    const counter = counterFor(crypto.randomUUID());
    expect(await counter.hit(2, 60)).toEqual({ allowed: true, retryAfterSeconds: 60 });
    expect((await counter.hit(2, 60)).allowed).toBe(true);
    const refused = await counter.hit(2, 60);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    await vi.waitFor(async () => expect(await storedHits(counter)).toBe(2));
  });

  it("keeps its count across a restart: the count reaches the disk just after the answer", async () => {
    const key = crypto.randomUUID();
    const counter = counterFor(key);
    for (let i = 0; i < 3; i++) expect((await counter.hit(3, 60)).allowed).toBe(true);
    await vi.waitFor(async () => expect(await storedHits(counter)).toBe(3));
    // As a deploy or an eviction does: the object starts again from what it stored.
    await abortAllDurableObjects();
    expect((await counterFor(key).hit(3, 60)).allowed).toBe(false);
  });

  it("starts a new window once the period is over", async () => {
    const counter = counterFor(crypto.randomUUID());
    expect((await counter.hit(1, 1)).allowed).toBe(true);
    expect(await counter.hit(1, 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await counter.hit(1, 1)).allowed).toBe(true);
  });
});
