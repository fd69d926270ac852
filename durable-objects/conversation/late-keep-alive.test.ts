import { describe, expect, it } from "vitest";
import { keepAliveIfLong } from "./late-keep-alive";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A keep-alive that records when it is taken and released. */
function recorder(takesMs = 0) {
  const log: string[] = [];
  const keepAlive = async () => {
    log.push("taken");
    await sleep(takesMs);
    return () => log.push("released");
  };
  return { log, keepAlive };
}

describe("keepAliveIfLong", () => {
  it("never takes the keep-alive for work that ends before the delay", async () => {
    const { log, keepAlive } = recorder();
    expect(await keepAliveIfLong(keepAlive, async () => "done", 30)).toBe("done");
    await sleep(60);
    expect(log).toEqual([]);
  });

  it("holds it from the delay on and releases it when the work ends, even by throwing", async () => {
    const { log, keepAlive } = recorder();
    const work = keepAliveIfLong(
      keepAlive,
      async () => {
        await sleep(60);
        expect(log).toEqual(["taken"]);
        throw new Error("the turn failed");
      },
      10,
    );
    await expect(work).rejects.toThrow("the turn failed");
    expect(log).toEqual(["taken", "released"]);
  });

  it("releases a keep-alive that was taken only after the work ended", async () => {
    const { log, keepAlive } = recorder(40);
    await keepAliveIfLong(keepAlive, () => sleep(20), 10);
    expect(log).toEqual(["taken"]);
    await sleep(60);
    expect(log).toEqual(["taken", "released"]);
  });
});
