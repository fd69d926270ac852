// See ../web.mjs. Figures go to stdout; nothing here asserts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../../../tests/e2e/browser";
import { startStack } from "../../../tests/e2e/stack";
import { addBigGraphFixtures } from "../../../tests/e2e/big-graph";
import { benchGraph } from "./web-bench-graph";
import { benchLongConversation } from "./web-bench-long";
import { addLongAnswerFixture, benchStreaming } from "./web-bench-stream";

// Built by ../web.mjs (web/dist when run on its own).
const dist =
  process.env.BENCH_WEB_DIST ?? fileURLToPath(new URL("../../../web/dist/", import.meta.url));
// Sizes of the long conversations to open, e.g. BENCH_WEB_MESSAGES=1000,10000 (0 for none);
// BENCH_WEB_GRAPH=0 skips the knowledge graph, BENCH_WEB_STREAM=0 the streamed long answer;
// BENCH_WEB_RENDERS sets the visits timed.
const MESSAGES = (process.env.BENCH_WEB_MESSAGES ?? "1000,10000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const GRAPH = process.env.BENCH_WEB_GRAPH !== "0";
const STREAM = process.env.BENCH_WEB_STREAM !== "0";
// Visits timed for the first render (the machine's noise needs more than a handful).
const RENDERS = Number(process.env.BENCH_WEB_RENDERS ?? 15);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const gz = (file: string) => gzipSync(readFileSync(join(dist, file))).length;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

// 1. What a first visit downloads: the entry script and what it preloads.
const html = readFileSync(join(dist, "index.html"), "utf8");
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
  (m) => m[1]!,
);
const initialJs = initial.filter((f) => f.endsWith(".js"));
const lazy = readdirSync(join(dist, "assets")).filter(
  (f) => f.endsWith(".js") && !initialJs.includes(`assets/${f}`),
);
console.log(
  `initial JS (gzip): ${kb(initialJs.reduce((n, f) => n + gz(f), 0))} in ${initialJs.length} file(s)`,
);
console.log(
  `initial CSS (gzip): ${kb(initial.filter((f) => f.endsWith(".css")).reduce((n, f) => n + gz(f), 0))}`,
);
for (const f of lazy) console.log(`  lazy chunk ${f} (gzip): ${kb(gz(join("assets", f)))}`);

// 2 and 3 run against the real app under wrangler dev, with aimock answering at once.
const stack = await startStack(
  (mock) => {
    addBigGraphFixtures(mock);
    addLongAnswerFixture(mock);
    mock.onMessage(/.*/, { content: "A short answer, **in markdown**." });
    // The bench sends thousands of messages in a minute: lift the limits meant for people.
  },
  {
    vars: { RATE_LIMIT_MESSAGE: "1000000/60", RATE_LIMIT_WS_TICKET: "1000000/60" },
    assetsDir: dist,
  },
);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  // The page's own record of the first animation frame that has the list's button, checked in
  // every frame from the document's start: a check started by the test driver would begin only
  // after goto returned (the load event) and a round trip, and could not see an earlier frame.
  // A string, not a function: tsx's helpers would not exist in the page.
  await page.addInitScript({
    content: `(() => {
      const check = () => {
        if ([...document.querySelectorAll("button")].some((b) => b.textContent === "New conversation"))
          window.listShownAt = performance.now();
        else if (performance.now() < 30000) requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })()`,
  });
  // First visit: sign in through the start link, then reload and time a visit with a session.
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation" }).waitFor();
  // A returning visit: the service worker installed (and its shell cached) by the first.
  await page.evaluate(`navigator.serviceWorker.ready.then(() => undefined)`);
  const firstRender: number[] = [];
  const driverSaw: number[] = [];
  const firstPaint: number[] = [];
  for (let i = 0; i < RENDERS; i++) {
    await page.goto(`${stack.url}/`);
    // Milliseconds from navigation start, by the page's own clock, until the list's button shows
    // (the start of the frame that first has it), and when the driver's own check first saw it.
    const seen = await page.waitForFunction(
      () =>
        [...document.querySelectorAll("button")].some((b) => b.textContent === "New conversation")
          ? performance.now()
          : 0,
      undefined,
      { polling: "raf" },
    );
    driverSaw.push((await seen.jsonValue()) as number);
    const shown = await page.waitForFunction(
      () => (window as unknown as { listShownAt?: number }).listShownAt,
    );
    firstRender.push((await shown.jsonValue()) as number);
    firstPaint.push(
      await page.evaluate(
        () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      ),
    );
  }
  console.log(
    `time to first render (conversation list shown, localhost, warm): p50 ${pct(firstRender, 50).toFixed(0)} ms, max ${Math.max(...firstRender).toFixed(0)} ms (each: ${firstRender.map((t) => t.toFixed(0)).join(", ")}); first contentful paint p50 ${pct(firstPaint, 50).toFixed(0)} ms; the test driver's own check saw the list at p50 ${pct(driverSaw, 50).toFixed(0)} ms`,
  );

  for (const n of MESSAGES) await benchLongConversation(stack, browser, page, n);
  if (STREAM) await benchStreaming(stack, page);
  if (GRAPH) await benchGraph(stack, page);
} finally {
  await browser.close();
  await stack.stop();
}
