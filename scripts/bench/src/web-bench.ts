// See ../web.mjs. Figures go to stdout; nothing here asserts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../../../tests/e2e/browser";
import { startStack } from "../../../tests/e2e/stack";

const dist = fileURLToPath(new URL("../../../web/dist/", import.meta.url));
const MESSAGES = Number(process.env.BENCH_WEB_MESSAGES ?? 1000);

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
const stack = await startStack((mock) =>
  mock.onMessage(/.*/, { content: "A short answer, **in markdown**." }),
);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  // First visit: sign in through the start link, then reload and time a visit with a session.
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation" }).waitFor();
  const firstRender: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${stack.url}/`);
    await page.getByRole("button", { name: "New conversation" }).waitFor();
    firstRender.push(
      await page.evaluate(() => {
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
        return Math.max(fcp, performance.now());
      }),
    );
  }
  console.log(
    `time to first render (conversation list shown, localhost, warm): p50 ${pct(firstRender, 50).toFixed(0)} ms, max ${Math.max(...firstRender).toFixed(0)} ms`,
  );

  // A long conversation: MESSAGES/2 questions and their answers.
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "long" }),
  });
  const { id } = (await created.json()) as { id: string };
  // Scripts open the socket with a short-lived ticket, as the browser does.
  const ticket = await fetch(`${stack.url}/api/conversations/${id}/ws-ticket`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}` },
  });
  const { ticket: wsTicket } = (await ticket.json()) as { ticket: string };
  const ws = new WebSocket(
    `${stack.url.replace("http", "ws")}/api/conversations/${id}/ws?ticket=${encodeURIComponent(wsTicket)}`,
  );
  await new Promise((r) => ws.addEventListener("open", r));
  ws.send(JSON.stringify({ type: "resume", lastSeq: 0 }));
  let ended = 0;
  const progress = setInterval(() => console.log(`  seeding: ${ended} turns ended`), 30_000);
  const allEnded = new Promise<void>((resolve) =>
    ws.addEventListener("message", (m) => {
      // A frame may carry several events.
      ended += String(m.data).match(/"type":"turn_ended"/g)?.length ?? 0;
      if (ended >= MESSAGES / 2) resolve();
    }),
  );
  const seeding = performance.now();
  for (let i = 0; i < MESSAGES / 2; i++)
    ws.send(
      JSON.stringify({
        type: "send",
        clientMessageId: `q${i}`,
        text: `Question ${i}: tell me something.`,
      }),
    );
  await allEnded;
  clearInterval(progress);
  ws.close();
  console.log(
    `seeded ${MESSAGES} messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );

  const t0 = Date.now();
  await page.goto(`${stack.url}/?c=${id}`);
  await page
    .getByTestId("message-assistant")
    .nth(MESSAGES / 2 - 1)
    .waitFor({ timeout: 120_000 });
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('[data-testid="message-assistant"][data-status="complete"]')
        .length === n,
    MESSAGES / 2,
    { timeout: 120_000 },
  );
  console.log(
    `long conversation (${MESSAGES} messages): shown complete ${Date.now() - t0} ms after navigation`,
  );

  const frames = await page.evaluate(async () => {
    const list = document.querySelector('[data-testid="messages"]')!;
    const deltas: number[] = [];
    let last = performance.now();
    list.scrollTop = 0;
    for (let i = 0; i < 120; i++) {
      await new Promise(requestAnimationFrame);
      const now = performance.now();
      deltas.push(now - last);
      last = now;
      list.scrollTop = (list.scrollHeight * (i + 1)) / 120;
    }
    return deltas;
  });
  console.log(
    `scrolling it top to bottom in 120 frames: frame time p50 ${pct(frames, 50).toFixed(1)} ms, p95 ${pct(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms`,
  );
  const heap = await page.evaluate(
    () =>
      (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ??
      0,
  );
  if (heap)
    console.log(`JS heap with the long conversation open: ${(heap / 1048576).toFixed(1)} MiB`);
} finally {
  await browser.close();
  await stack.stop();
}
