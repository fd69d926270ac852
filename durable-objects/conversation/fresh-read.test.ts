import { describe, expect, it } from "vitest";
import { FreshRead } from "./fresh-read";

function counted() {
  let clock = 0;
  let loads = 0;
  let fail = false;
  const read = new FreshRead(
    async () => {
      loads++;
      if (fail) throw new Error("D1 is down");
      return `row ${loads}`;
    },
    1_000,
    () => clock,
  );
  return {
    read,
    loads: () => loads,
    advance: (ms: number) => (clock += ms),
    failNext: (f: boolean) => (fail = f),
  };
}

describe("a read shared for a short while", () => {
  it("a turn that starts right after its message's read uses that read: one load, not two", async () => {
    const r = counted();
    await r.read.refresh();
    r.advance(200);
    expect(await r.read.get()).toBe("row 1");
    expect(r.loads()).toBe(1);
  });

  it("a turn that starts later (queued) reads again", async () => {
    const r = counted();
    await r.read.refresh();
    r.advance(1_001);
    expect(await r.read.get()).toBe("row 2");
    expect(r.loads()).toBe(2);
  });

  it("each new message reads afresh, so a change made before it is seen", async () => {
    const r = counted();
    await r.read.refresh();
    r.advance(10);
    await r.read.refresh();
    expect(await r.read.get()).toBe("row 2");
  });

  it("a failed read is not handed out again", async () => {
    const r = counted();
    r.failNext(true);
    await expect(r.read.refresh()).rejects.toThrow("D1 is down");
    r.failNext(false);
    expect(await r.read.get()).toBe("row 2");
  });
});
