// The long-conversation part of the web bench: a conversation of n messages opened in the
// browser (its events replayed in the page, see web-bench-frames.ts), timed until its last
// answer shows complete, then scrolled top to bottom.
import type { Browser, Page } from "playwright-core";
import type { Stack } from "../../../tests/e2e/stack";
import { conversationFrames, replaySocketScript } from "../../../tests/e2e/replay-conversation";
import { createConversation } from "./web-bench-seed";

/** A client that takes longer than this to show the conversation has failed the test. */
const TIMEOUT = 90_000;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

export async function benchLongConversation(
  stack: Stack,
  browser: Browser,
  signedIn: Page,
  messages: number,
): Promise<void> {
  const turns = messages / 2;
  const id = await createConversation(stack, { title: `long ${messages}` });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(await signedIn.context().cookies());
  await context.addInitScript({
    content: replaySocketScript(`/api/conversations/${id}/ws`, conversationFrames(messages)),
  });
  const page = await context.newPage();
  const shown: number[] = [];
  const caughtUp: number[] = [];
  for (let run = 0; run < 3; run++) {
    await page.goto(`${stack.url}/?c=${id}`);
    // Complete: the last question and its answer are on screen, the answer finished, and the
    // page has painted a frame since (milliseconds since navigation start, from the page).
    const handle = await page
      .waitForFunction(
        (last) => {
          const list = document.querySelector('[data-testid="messages"]');
          const users = list?.querySelectorAll('[data-testid="message-user"]');
          const answers = list?.querySelectorAll('[data-testid="message-assistant"]');
          const lastUser = users?.[users.length - 1];
          const lastAnswer = answers?.[answers.length - 1];
          if (!list || !lastUser?.textContent?.startsWith(last)) return 0;
          if (lastAnswer?.getAttribute("data-status") !== "complete") return 0;
          const box = list.getBoundingClientRect();
          const answerBox = lastAnswer.getBoundingClientRect();
          if (answerBox.bottom > box.bottom + 1 || answerBox.bottom < box.top) return 0;
          return new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
        },
        `Question ${turns - 1}:`,
        { timeout: TIMEOUT, polling: 50 },
      )
      .catch(async (err: unknown) => {
        await page.screenshot({ path: `/tmp/web-bench-timeout-${messages}.png` });
        console.log(
          `  not shown complete within ${TIMEOUT / 1000} s: ${String(err).split("\n")[0]}`,
        );
        return null;
      });
    if (!handle) return context.close();
    const at = (await handle.jsonValue()) as number;
    shown.push(at);
    const replay = await page.evaluate(
      () => (window as unknown as { replayTimes: { resumed: number } }).replayTimes,
    );
    caughtUp.push(at - replay.resumed);
  }
  console.log(
    `long conversation (${messages} messages): shown complete ${pct(caughtUp, 50).toFixed(0)} ms after the socket asked to catch up (median of 3; max ${Math.max(...caughtUp).toFixed(0)} ms), ${pct(shown, 50).toFixed(0)} ms from navigation (the page's load included)`,
  );

  const frames = await page.evaluate(async () => {
    const list = document.querySelector('[data-testid="messages"]')!;
    const deltas: number[] = [];
    list.scrollTop = 0;
    await new Promise(requestAnimationFrame);
    let last = performance.now();
    for (let i = 0; i < 120; i++) {
      list.scrollTop = (list.scrollHeight * (i + 1)) / 120;
      await new Promise(requestAnimationFrame);
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    return deltas;
  });
  const inDom = await page.evaluate(
    () => document.querySelectorAll('[data-testid="messages"] article').length,
  );
  console.log(
    `  scrolling it top to bottom in 120 frames: frame time p50 ${pct(frames, 50).toFixed(1)} ms, p95 ${pct(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms; ${inDom} messages in the DOM`,
  );
  const heap = await page.evaluate(
    () =>
      (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ??
      0,
  );
  if (heap) console.log(`  JS heap with it open: ${(heap / 1048576).toFixed(1)} MiB`);
  await context.close();
}
