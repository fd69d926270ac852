// The streaming part of the web bench: a long markdown answer (headings, lists, a table, code,
// math) streams into the page as a model would write it, while a long-task observer and a frame
// timer watch the main thread. What a reader of a long answer feels as the page keeping up, or not.
import type { LLMock } from "@copilotkit/aimock";
import type { Page } from "playwright-core";
import type { Stack } from "../../../tests/e2e/stack";
import { slowdownLabel, slowedDown, watchMainThread } from "./web-bench-main-thread";
import { createConversation } from "./web-bench-seed";

const ASK = "stream a long answer";
const END = "That is the whole answer.";
/** Characters per streamed delta and ms between deltas: about 2,000 characters a second. */
const CHUNK = 20;
const LATENCY_MS = 10;

function section(i: number): string {
  return `## Part ${i}: what the trials found

Across the **${i * 3 + 2} trials**, the effect held in most groups; see \`effect_size\` and the
[registry](https://example.org/trials/${i}) for each one. The estimate is $\\hat\\beta = ${i}.${i}$ with
$p < 0.05$, and the pooled variance follows

$$\\sigma^2 = \\frac{1}{n-1}\\sum_{k=1}^{n}(x_k - \\bar{x})^2$$

- Phase I: safety in ${10 + i} volunteers, with *no* serious events
- Phase II: dose finding, two arms
  - low dose, weekly
  - high dose, every other week
- Phase III: ${200 + i * 10} patients, randomized

| trial | phase | patients | result |
| --- | --- | --- | --- |
${Array.from({ length: 8 }, (_, k) => `| T-${i}${k} | ${(k % 3) + 1} | ${40 + k * 7} | ${k % 2 ? "benefit" : "no difference"} |`).join("\n")}

\`\`\`ts
export function pooledEstimate(trials: Trial[]): number {
  let weight = 0;
  let total = 0;
  for (const trial of trials) {
    const w = 1 / trial.variance;
    weight += w;
    total += w * trial.effect;
  }
  return total / weight; // part ${i}
}
\`\`\`

> The smaller trials pull the estimate toward zero; leaving them out changes it by less than a
> tenth.
`;
}

/** About 12,000 characters of markdown. */
const LONG_ANSWER = `${Array.from({ length: 10 }, (_, i) => section(i + 1)).join("\n")}\n${END}`;

export function addLongAnswerFixture(mock: LLMock): void {
  mock.onMessage(
    new RegExp(ASK),
    { content: LONG_ANSWER },
    { chunkSize: CHUNK, latency: LATENCY_MS },
  );
}

export async function benchStreaming(stack: Stack, page: Page): Promise<void> {
  const runs: { block: number; blocked: number; gapP95: number; gapMax: number; lag: number }[] =
    [];
  await slowedDown(page, async () => {
    for (let run = 0; run < 3; run++) {
      const id = await createConversation(stack, { provider: "anthropic" });
      await page.goto(`${stack.url}/?c=${id}`);
      const box = page.getByRole("textbox", { name: "Message" });
      await box.waitFor();
      await box.fill(ASK);
      const watch = await watchMainThread(page);
      const sent = Date.now();
      await box.press("Enter");
      // The end shows once the last delta is drawn; the stream itself lasts its length / rate.
      await page.getByText(END).waitFor({ timeout: 120_000 });
      const shownAfter = Date.now() - sent;
      const { blocks, gaps } = await watch.stop();
      const sorted = [...gaps].sort((a, b) => a - b);
      runs.push({
        block: Math.max(0, ...blocks),
        blocked: blocks.reduce((a, b) => a + b, 0),
        gapP95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
        gapMax: sorted[sorted.length - 1] ?? 0,
        lag: shownAfter - (LONG_ANSWER.length / CHUNK) * LATENCY_MS,
      });
    }
  });
  const median = (k: keyof (typeof runs)[number]) =>
    [...runs.map((r) => r[k])].sort((a, b) => a - b)[1]!.toFixed(0);
  console.log(
    `stream a ${(LONG_ANSWER.length / 1000).toFixed(0)}k-character markdown answer at ${(CHUNK / LATENCY_MS) * 1000} characters/s (median of 3${slowdownLabel}): longest main-thread task ${median("block")} ms, long tasks ${median("blocked")} ms in all, frame gap p95 ${median("gapP95")} ms and max ${median("gapMax")} ms, the end shown ${median("lag")} ms after the stream's own length`,
  );
}
