// The knowledge-graph part of the web bench: a graph-mode turn merges a 500-node graph through
// our MCP worker, then the browser opens it while a long-task observer watches the main thread.
import type { Page } from "playwright-core";
import { BIG_GRAPH_ASK, BIG_GRAPH_NODES } from "../../../tests/e2e/big-graph";
import type { Stack } from "../../../tests/e2e/stack";
import { slowdownLabel, slowedDown, watchMainThread } from "./web-bench-main-thread";
import { createConversation, sendAll } from "./web-bench-seed";

const NODES = BIG_GRAPH_NODES;
const ASK = BIG_GRAPH_ASK;

export async function benchGraph(stack: Stack, page: Page): Promise<void> {
  const id = await createConversation(stack, { mode: "graph", provider: "anthropic" });
  await sendAll(stack, id, [ASK]);
  const runs: { block: number; frame: number; shown: number }[] = [];
  await slowedDown(page, async () => {
    for (let run = 0; run < 3; run++) {
      await page.goto(`${stack.url}/?c=${id}`);
      const button = page.locator('button.artifact-button[data-artifact-type$="knowledge-graph"]');
      await button.waitFor({ timeout: 60_000 });
      // Give the page a moment to settle, then watch long tasks and frame gaps from the click on.
      await page.waitForTimeout(500);
      const watch = await watchMainThread(page);
      await button.click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="graph-node"]').length === n,
        NODES,
        { timeout: 60_000 },
      );
      const shown = await watch.elapsed();
      await page.waitForTimeout(1_000);
      const { blocks, gaps } = await watch.stop();
      runs.push({ block: Math.max(0, ...blocks), frame: Math.max(0, ...gaps), shown });
    }
  });
  const worst = (k: "block" | "frame" | "shown") => Math.max(...runs.map((r) => r[k])).toFixed(0);
  console.log(
    `open a ${NODES}-node knowledge graph (3 runs, worst${slowdownLabel}): longest main-thread task ${worst("block")} ms (0 = none over 50 ms), longest frame gap ${worst("frame")} ms, all nodes drawn after ${worst("shown")} ms`,
  );
}
