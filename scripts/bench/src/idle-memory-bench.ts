// See ../idle-memory.mjs. Figures go to stdout; nothing here asserts.
// BENCH_IDLE_CONVERSATIONS sets how many conversations run (one turn each, over SSE);
// BENCH_IDLE_WAIT_S how long they are left idle; BENCH_IDLE_VARS adds worker vars
// ("NAME=value,NAME=value"), to compare settings in one run.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { SseReader } from "../../../tests/support/sse-client";
import { startStack } from "../../../tests/e2e/stack";
import { jsHeapMiB } from "./js-heap";
import { workerdProcesses, workerdRssMiB } from "./workerd-memory";

const CONVERSATIONS = Number(process.env.BENCH_IDLE_CONVERSATIONS ?? 100);
const WAIT_S = Number(process.env.BENCH_IDLE_WAIT_S ?? 30);
const extraVars = Object.fromEntries(
  (process.env.BENCH_IDLE_VARS ?? "")
    .split(",")
    .filter(Boolean)
    .map((kv) => kv.split("=") as [string, string]),
);

/** Resident memory (MiB) of every workerd process started under this one. */
const rssMiB = (): number => workerdRssMiB(process.pid) ?? 0;

/** SQLite files workerd holds open: each Durable Object keeps its database (and its cache). */
function openSqliteFiles(): number {
  let open = 0;
  for (const { pid } of workerdProcesses(process.pid)) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).endsWith(".sqlite")) open++;
      } catch {
        // closed meanwhile
      }
    }
  }
  return open;
}

const stack = await startStack(
  (mock) => mock.onMessage(/.*/, { content: "x".repeat(400) }, { chunkSize: 8 }),
  {
    vars: {
      RATE_LIMIT_NEW_CONVERSATION: "10000/60",
      RATE_LIMIT_MESSAGE: "10000/60",
      ...extraVars,
    },
    // The JS heap is read through the inspector, which then shows the API worker.
    withoutPdfText: true,
  },
);
const call = (path: string, body?: unknown) =>
  fetch(`${stack.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

try {
  await new Promise((r) => setTimeout(r, 3_000));
  const start = rssMiB();
  const heapStart = await jsHeapMiB(stack.inspectorPort);
  const sqliteStart = openSqliteFiles();
  for (let i = 0; i < CONVERSATIONS; i++) {
    const { id } = (await (await call("/api/conversations", { title: `idle ${i}` })).json()) as {
      id: string;
    };
    await new SseReader(
      await call(`/api/conversations/${id}/chat`, { clientMessageId: `i${i}`, text: "hi" }),
    ).done(60_000);
  }
  const busy = rssMiB();
  await new Promise((r) => setTimeout(r, WAIT_S * 1000));
  const idle = rssMiB();
  const heapIdle = await jsHeapMiB(stack.inspectorPort);
  const sqliteIdle = openSqliteFiles();
  const vars = Object.keys(extraVars).length ? ` with ${JSON.stringify(extraVars)}` : "";
  console.log(
    `Runtime memory (workerd RSS) around ${CONVERSATIONS} one-turn conversations${vars}:`,
  );
  console.log(
    `  before: ${start.toFixed(0)} MiB; after the turns: ${busy.toFixed(0)} MiB; after ${WAIT_S} s idle: ${idle.toFixed(0)} MiB`,
  );
  console.log(
    `  left behind per idle conversation: ${(((idle - start) * 1024) / CONVERSATIONS).toFixed(0)} KiB`,
  );
  // The JS heap of the workers' isolate: what our objects (and the libraries') keep, plus garbage.
  for (const [worker, after] of heapIdle) {
    const before = heapStart.get(worker) ?? 0;
    console.log(
      `  JS heap of ${worker}: ${before.toFixed(1)} MiB → ${after.toFixed(1)} MiB (${(((after - before) * 1024) / CONVERSATIONS).toFixed(0)} KiB per conversation)`,
    );
  }
  console.log(`  SQLite files workerd holds open: ${sqliteStart} → ${sqliteIdle}`);
  const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
  console.log(`  (load average ${load}; local machine under wrangler dev)`);
} finally {
  await stack.stop();
}
