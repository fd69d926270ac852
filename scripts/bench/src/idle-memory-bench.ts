// See ../idle-memory.mjs. Figures go to stdout; nothing here asserts.
// BENCH_IDLE_CONVERSATIONS sets how many conversations run (one turn each, over SSE);
// BENCH_IDLE_WAIT_S how long they are left idle; BENCH_IDLE_VARS adds worker vars
// ("NAME=value,NAME=value"), to compare settings in one run.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { SseReader } from "../../../tests/support/sse-client";
import { startStack } from "../../../tests/e2e/stack";

const CONVERSATIONS = Number(process.env.BENCH_IDLE_CONVERSATIONS ?? 100);
const WAIT_S = Number(process.env.BENCH_IDLE_WAIT_S ?? 30);
const extraVars = Object.fromEntries(
  (process.env.BENCH_IDLE_VARS ?? "")
    .split(",")
    .filter(Boolean)
    .map((kv) => kv.split("=") as [string, string]),
);

/** Resident memory (MiB) of every workerd process started under this one. */
function workerdRssMiB(): number {
  const out = execFileSync("ps", ["-e", "-o", "pid=,ppid=,rss=,comm="], { encoding: "utf8" });
  const rows = out
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, rss, comm]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      rss: Number(rss),
      comm,
    }));
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows)
      if (mine.has(r.ppid) && !mine.has(r.pid)) {
        mine.add(r.pid);
        grew = true;
      }
  }
  const kib = rows
    .filter((r) => mine.has(r.pid) && r.comm === "workerd")
    .reduce((s, r) => s + r.rss, 0);
  return kib / 1024;
}

const stack = await startStack(
  (mock) => mock.onMessage(/.*/, { content: "x".repeat(400) }, { chunkSize: 8 }),
  {
    vars: {
      RATE_LIMIT_NEW_CONVERSATION: "10000/60",
      RATE_LIMIT_MESSAGE: "10000/60",
      ...extraVars,
    },
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
  const start = workerdRssMiB();
  for (let i = 0; i < CONVERSATIONS; i++) {
    const { id } = (await (await call("/api/conversations", { title: `idle ${i}` })).json()) as {
      id: string;
    };
    await new SseReader(
      await call(`/api/conversations/${id}/chat`, { clientMessageId: `i${i}`, text: "hi" }),
    ).done(60_000);
  }
  const busy = workerdRssMiB();
  await new Promise((r) => setTimeout(r, WAIT_S * 1000));
  const idle = workerdRssMiB();
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
  const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
  console.log(`  (load average ${load}; local machine under wrangler dev)`);
} finally {
  await stack.stop();
}
