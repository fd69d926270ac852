// A ToolRunner wrapped for one concern (timing, an extra tool, the turn's name map) passes the
// runner's optional hooks on unchanged: one place, so a new hook reaches every wrapper.
import type { ToolRunner } from "./types";

export const runnerHooks = (
  runner: ToolRunner,
): Pick<ToolRunner, "changed" | "skipped" | "backAgain"> => ({
  ...(runner.changed && { changed: () => runner.changed!() }),
  ...(runner.skipped && { skipped: (server: string) => runner.skipped!(server) }),
  ...(runner.backAgain && { backAgain: () => runner.backAgain!() }),
});
