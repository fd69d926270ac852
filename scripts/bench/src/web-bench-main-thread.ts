// What the web bench watches of the page's main thread while something happens in it: long tasks
// (over 50 ms, from a PerformanceObserver) and the gaps between animation frames. And Chromium's
// CPU throttling, for the figures of a slower device without loading this machine.
import type { Page } from "playwright-core";

/** BENCH_WEB_CPU_SLOWDOWN=4 has Chromium run the page's thread 4 times slower (a phone, say). */
export const SLOWDOWN = Number(process.env.BENCH_WEB_CPU_SLOWDOWN ?? 1);
export const slowdownLabel = SLOWDOWN > 1 ? `, CPU ${SLOWDOWN}x slower` : "";

/** Runs `work` with the page's CPU throttled by SLOWDOWN. */
export async function slowedDown<T>(page: Page, work: () => Promise<T>): Promise<T> {
  if (SLOWDOWN <= 1) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOWDOWN });
  try {
    return await work();
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.detach();
  }
}

export interface MainThread {
  /** Ms since the watch started, by the page's clock. */
  elapsed(): Promise<number>;
  /** Ends the watch: every long task's duration and every gap between frames, in ms. */
  stop(): Promise<{ blocks: number[]; gaps: number[] }>;
}

export async function watchMainThread(page: Page): Promise<MainThread> {
  // A string, not a function: tsx's helpers would not exist in the page.
  await page.evaluate(`(() => {
    const watch = (window.mainThread = { blocks: [], gaps: [], start: performance.now(), done: false });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) watch.blocks.push(e.duration);
    }).observe({ type: "longtask" });
    let last = watch.start;
    const frame = (now) => {
      watch.gaps.push(now - last);
      last = now;
      if (!watch.done) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
  return {
    elapsed: () => page.evaluate(`performance.now() - window.mainThread.start`) as Promise<number>,
    stop: () =>
      page.evaluate(`(() => {
        const watch = window.mainThread;
        watch.done = true;
        return { blocks: watch.blocks, gaps: watch.gaps };
      })()`) as Promise<{ blocks: number[]; gaps: number[] }>,
  };
}
