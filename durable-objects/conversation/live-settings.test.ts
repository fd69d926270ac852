// A running turn's view of its owner's MCP settings: reads after a change land in any order, and
// the turn keeps the newest.
import { expect, it } from "vitest";
import { LiveSettings, type OwnerSettings } from "./live-settings";

const settings = (name: string): OwnerSettings => ({
  servers: [
    {
      name,
      url: `https://${name}.example/mcp`,
      headers: {},
      timeoutMs: 1000,
      maxTotalMs: 1000,
      enabledTools: null,
      builtin: false,
    },
  ],
  policies: {},
});

it("two changes in a row: the second read wins even when the first one lands after it", async () => {
  const answers: Array<(s: OwnerSettings) => void> = [];
  const live = new LiveSettings(
    settings("start"),
    () => new Promise<OwnerSettings>((resolve) => answers.push(resolve)),
  );
  live.changed();
  live.changed();
  expect(live.stale).toBe(true);
  const current = live.current();
  answers[1]!(settings("second"));
  answers[0]!(settings("first"));
  expect((await current).servers[0]!.name).toBe("second");
  await new Promise((r) => setTimeout(r, 0));
  expect(live.servers[0]!.name).toBe("second");
  expect(live.stale).toBe(false);
});

it("a read that fails is tried again at the next call, and the turn keeps what it had meanwhile", async () => {
  let fail = true;
  const live = new LiveSettings(settings("start"), async () => {
    if (fail) throw new Error("D1 is down");
    return settings("after");
  });
  live.changed();
  expect((await live.current()).servers[0]!.name).toBe("start");
  expect(live.stale).toBe(true);
  fail = false;
  expect((await live.current()).servers[0]!.name).toBe("after");
  expect(live.stale).toBe(false);
});
