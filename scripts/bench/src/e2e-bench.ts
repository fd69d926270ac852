// See ../e2e.mjs. The real app under `wrangler dev` (both workers, local D1/R2/DOs) with aimock at
// zero latency; a client talks to it over WebSocket as the web client does. Figures go to stdout;
// nothing here asserts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LLMock } from "@copilotkit/aimock";
import { startStack } from "../../../tests/e2e/stack";
import {
  failureKinds,
  fmt,
  newConversation as ourNewConversation,
  Session,
  uploadAttachment,
  envNumber,
  UNLIMITED_RATES,
} from "./e2e-session";
import { workerdRssMiB } from "./workerd-memory";

/** Turns per latency figure (plain, three-step, first turn of a new conversation). */
const RUNS = envNumber("BENCH_E2E_RUNS", 30);
/** How many new conversations run their first turn at once, one figure per entry. */
const CROWDS = (process.env.BENCH_E2E_CROWDS ?? "50,200")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
/** Conversations (one turn each) before the runtime's memory is read; 0 skips the figure. */
const MEMORY_CONVERSATIONS = envNumber("BENCH_E2E_MEMORY_CONVERSATIONS", 400);
/** Messages before the turns of the long-conversation figure (plain turns, two messages each). */
const LONG_MESSAGES = envNumber("BENCH_E2E_LONG_MESSAGES", 200);
/** Attachments in the history of the attachments figure: half images of 1 MiB, half text of 64 KiB. */
const ATTACHMENTS = envNumber("BENCH_E2E_ATTACHMENTS", 8);
const DELTAS = 50;
const CHUNK = 4;
const PLAIN = "x".repeat(DELTAS * CHUNK);

function fixtures(mock: LLMock): void {
  // The three-step turn: fetch two articles, draw a chart, answer. Later steps first: aimock
  // answers with the first fixture that matches.
  mock.on({ toolResultContains: "chart titled" }, { content: "Two articles, one chart." });
  mock.on(
    { toolResultContains: "2 articles." },
    {
      toolCalls: [
        {
          id: "c1",
          name: "mcp-remote__render_chart",
          arguments: JSON.stringify({
            type: "bar",
            title: "Trials per phase",
            labels: ["I", "II", "III"],
            series: [{ name: "trials", values: [4, 7, 2] }],
          }),
        },
      ],
    },
  );
  mock.onMessage(/three steps/, {
    toolCalls: [
      {
        id: "f1",
        name: "mcp-remote__pubmed_fetch",
        arguments: '{"pmids":["31452104","29625052"]}',
      },
    ],
  });
  mock.onMessage(/plain/, { content: PLAIN }, { chunkSize: CHUNK, latency: 0 });
}

const assets = mkdtempSync(join(tmpdir(), "bench-e2e-assets-"));
writeFileSync(join(assets, "index.html"), "<!doctype html><title>bench</title>");
const stack = await startStack(fixtures, {
  assetsDir: assets,
  vars: UNLIMITED_RATES,
});

/** POST create, then the socket (signed in as the web client's is, no ticket). */
const openNew = async () => Session.open(stack, (await ourNewConversation(stack)).id);

/**
 * Turns in one conversation, one after another (the first is a warm-up and not counted), after
 * `earlierTurns` plain ones that make it long.
 */
async function repeatedTurns(label: string, text: string, earlierTurns = 0) {
  const session = await openNew();
  for (let i = 0; i < earlierTurns; i++) await session.turn("plain");
  await session.turn(text);
  const first: number[] = [];
  const final: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await session.turn(text);
    if (t.firstDelta !== null) first.push(t.firstDelta);
    final.push(t.final);
  }
  session.close();
  if (first.length) console.log(`${label}: send → first delta ${fmt(first)}`);
  console.log(`${label}: send → final event ${fmt(final)}`);
}

/** A file of `size` bytes whose first bytes make it a PNG image, or UTF-8 text. */
function fileBytes(kind: "png" | "text", size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  crypto.getRandomValues(bytes.subarray(0, Math.min(size, 65_536)));
  if (kind === "text") return bytes.map((b) => 97 + (b % 26));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

/**
 * Plain turns in a conversation whose first message carried `count` attachments: every turn's
 * history holds them, so every turn loads them for the model (Anthropic's takes the images as
 * bytes and the text files as text).
 */
async function attachmentTurns(count: number) {
  const session = await openNew();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const image = i % 2 === 0;
    const bytes = image ? fileBytes("png", 1024 * 1024) : fileBytes("text", 64 * 1024);
    ids.push(
      await uploadAttachment(
        stack,
        session.conversationId,
        `f${i}.${image ? "png" : "txt"}`,
        bytes,
      ),
    );
  }
  await session.turn("plain", undefined, ids);
  const first: number[] = [];
  const final: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await session.turn("plain");
    if (t.firstDelta !== null) first.push(t.firstDelta);
    final.push(t.final);
  }
  session.close();
  const label = `plain answer with ${count} attachments in its history (${Math.ceil(count / 2)} images of 1 MiB, ${Math.floor(count / 2)} texts of 64 KiB)`;
  console.log(`${label}: send → first delta ${fmt(first)}`);
  console.log(`${label}: send → final event ${fmt(final)}`);
}

/**
 * A new conversation: a socket that creates it (or, with `open`, POST then a socket), then a send.
 * `firstDelta` and `final` are timed from the send, `whole` from the first request (what a user
 * waits for, as the peer's client that just opens a socket to a new name and sends).
 */
async function firstTurn(
  timeoutMs?: number,
  open: () => Promise<Session> = () => Session.create(stack),
): Promise<{ firstDelta: number | null; final: number; whole: number }> {
  const started = performance.now();
  const session = await open();
  try {
    const turn = await session.turn("plain", timeoutMs);
    return { ...turn, whole: performance.now() - started };
  } finally {
    session.close();
  }
}

async function crowd(size: number): Promise<void> {
  // wrangler dev runs every object on one thread: a crowd waits its turn, so it gets longer.
  const timeoutMs = Math.max(60_000, size * 3_000);
  const started = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: size }, async () => {
      const t0 = performance.now();
      await firstTurn(timeoutMs);
      return performance.now() - t0;
    }),
  );
  const wall = performance.now() - started;
  const ok = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const errors = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  const sample = errors.length > 0 ? ` (${failureKinds(errors)})` : "";
  console.log(
    `${size} new conversations at once: all done in ${wall.toFixed(0)} ms; socket open → turn ended ${fmt(ok)}; errors ${errors.length}${sample}`,
  );
}

async function memory(conversations: number): Promise<void> {
  const before = workerdRssMiB(stack.pid());
  const batch = 20;
  let errors = 0;
  for (let done = 0; done < conversations; done += batch) {
    const n = Math.min(batch, conversations - done);
    const results = await Promise.allSettled(Array.from({ length: n }, () => firstTurn()));
    errors += results.filter((r) => r.status === "rejected").length;
  }
  // Let idle work (outbox flushes, closed sockets) settle before reading.
  await new Promise((r) => setTimeout(r, 3_000));
  const after = workerdRssMiB(stack.pid());
  console.log(
    before === null || after === null
      ? "runtime memory: not measured (no workerd found under wrangler dev)"
      : `runtime memory (workerd RSS): ${before.toFixed(0)} MiB → ${after.toFixed(0)} MiB after ${conversations} conversations (errors ${errors})`,
  );
}

try {
  console.log(
    `end-to-end under wrangler dev, aimock at zero latency; BENCH_E2E_RUNS=${RUNS}, BENCH_E2E_CROWDS=${CROWDS.join(",")}, BENCH_E2E_MEMORY_CONVERSATIONS=${MEMORY_CONVERSATIONS}, BENCH_E2E_LONG_MESSAGES=${LONG_MESSAGES}, BENCH_E2E_ATTACHMENTS=${ATTACHMENTS}`,
  );
  await repeatedTurns(`plain answer (${DELTAS} deltas)`, "plain");
  await repeatedTurns("three-step turn (two tool calls, then the answer)", "three steps");
  if (ATTACHMENTS > 0) await attachmentTurns(ATTACHMENTS);
  if (LONG_MESSAGES > 0) {
    const earlier = Math.ceil(LONG_MESSAGES / 2);
    await repeatedTurns(`plain answer after ${LONG_MESSAGES} messages`, "plain", earlier);
    await repeatedTurns(`three-step turn after ${LONG_MESSAGES} messages`, "three steps", earlier);
  }
  await firstTurn(); // warms the isolates and the MCP worker
  const firstDelta: number[] = [];
  const final: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await firstTurn();
    if (t.firstDelta !== null) firstDelta.push(t.firstDelta);
    final.push(t.final);
    whole.push(t.whole);
  }
  console.log(`first turn of a new conversation: send → first delta ${fmt(firstDelta)}`);
  console.log(`first turn of a new conversation: send → final event ${fmt(final)}`);
  console.log(`first turn of a new conversation: socket open → final event ${fmt(whole)}`);
  const viaPost: number[] = [];
  for (let i = 0; i < RUNS; i++) viaPost.push((await firstTurn(undefined, openNew)).whole);
  console.log(`first turn of a new conversation: POST create → final event ${fmt(viaPost)}`);
  for (const size of CROWDS) await crowd(size);
  if (MEMORY_CONVERSATIONS > 0) await memory(MEMORY_CONVERSATIONS);
} finally {
  await stack.stop();
  rmSync(assets, { recursive: true, force: true });
}
