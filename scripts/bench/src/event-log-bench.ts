// See ../event-log.mjs. Figures go to stdout; nothing here asserts.
// BENCH_EVENT_LOG_RUNS sets the repetitions; BENCH_EVENT_LOG_COMPACT=0 measures catch-up without
// the `compact` option (as a client that does not ask for it).
import {
  type ServerEvent,
  ServerFrame,
  isServerEvent,
} from "../../../durable-objects/protocol/wire";
import { SseReader } from "../../../tests/support/sse-client";
import { startStack } from "../../../tests/e2e/stack";

const RUNS = Number(process.env.BENCH_EVENT_LOG_RUNS ?? 20);
const COMPACT = process.env.BENCH_EVENT_LOG_COMPACT !== "0";
/** Characters per model delta, and deltas per answer. */
const CHUNK = 8;
const PLAIN_DELTAS = 50;
const LONG_DELTAS = 1000;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const fmt = (xs: number[], unit = "ms", digits = 0) =>
  `p50 ${pct(xs, 50).toFixed(digits)} ${unit}, p99 ${pct(xs, 99).toFixed(digits)} ${unit} (n=${xs.length})`;

const stack = await startStack(
  (mock) => {
    mock.onMessage(
      /bench plain/,
      { content: "p".repeat(PLAIN_DELTAS * CHUNK) },
      { chunkSize: CHUNK },
    );
    mock.onMessage(
      /bench long/,
      { content: "l".repeat(LONG_DELTAS * CHUNK) },
      { chunkSize: CHUNK },
    );
  },
  {
    // The bench opens more conversations, messages and sockets a minute than a person does.
    vars: {
      RATE_LIMIT_NEW_CONVERSATION: "10000/60",
      RATE_LIMIT_MESSAGE: "10000/60",
      RATE_LIMIT_WS_TICKET: "10000/60",
    },
  },
);
const call = (path: string, init: { body?: unknown; headers?: HeadersInit } = {}) =>
  fetch(`${stack.url}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${stack.token}`,
      "content-type": "application/json",
      ...init.headers,
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });

async function newConversation(title: string): Promise<string> {
  const res = await call("/api/conversations", { body: { title } });
  return ((await res.json()) as { id: string }).id;
}

/** Sends one message over SSE and returns its turn's events once it has ended. */
async function turn(
  id: string,
  text: string,
  n: number,
): Promise<{ events: ServerEvent[]; ms: number }> {
  const t0 = performance.now();
  const events = await new SseReader(
    await call(`/api/conversations/${id}/chat`, {
      body: { clientMessageId: `${text}-${n}`, text },
    }),
  ).done(120_000);
  const end = events.at(-1);
  if (end?.type !== "turn_ended") throw new Error(`turn ended with ${end?.type}`);
  return { events, ms: performance.now() - t0 };
}

/** Opens a socket, resumes from 0 and waits for `synced`: time, frames and bytes received. */
async function wsCatchUp(id: string) {
  const { ticket } = (await (
    await call(`/api/conversations/${id}/ws-ticket`, { body: {} })
  ).json()) as { ticket: string };
  const t0 = performance.now();
  const ws = new WebSocket(
    `${stack.url.replace("http", "ws")}/api/conversations/${id}/ws?ticket=${encodeURIComponent(ticket)}`,
  );
  let frames = 0;
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () =>
      ws.send(JSON.stringify({ type: "resume", lastSeq: 0, ...(COMPACT && { compact: true }) })),
    );
    ws.addEventListener("message", (m) => {
      const data = String(m.data);
      const frame = ServerFrame.parse(JSON.parse(data));
      if (isServerEvent(frame)) {
        frames++;
        bytes += data.length;
      } else if (frame.type === "synced") resolve();
    });
    ws.addEventListener("error", () => reject(new Error("websocket error")));
  });
  const ms = performance.now() - t0;
  ws.close();
  return { ms, frames, bytes };
}

/** Reads GET /events from the start until the (idle) conversation's stream ends. */
async function sseCatchUp(id: string) {
  const t0 = performance.now();
  const res = await call(`/api/conversations/${id}/events${COMPACT ? "?compact=1" : ""}`);
  const text = await res.text();
  return { ms: performance.now() - t0, bytes: text.length, frames: text.split("\nid: ").length };
}

try {
  // Per-delta cost: a plain answer of PLAIN_DELTAS model deltas, each in its own conversation.
  const plainTotal: number[] = [];
  const perDelta: number[] = [];
  const storedPerAnswer: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const id = await newConversation(`plain ${i}`);
    const { events, ms } = await turn(id, "bench plain", i);
    const deltas = events.filter((e) => e.type === "text_delta");
    const completed = events.find((e) => e.type === "message_completed")!;
    plainTotal.push(ms);
    perDelta.push((completed.at - deltas[0]!.at) / PLAIN_DELTAS);
    storedPerAnswer.push(deltas.length);
  }
  console.log(`Streaming a ${PLAIN_DELTAS}-delta answer (${PLAIN_DELTAS * CHUNK} characters):`);
  console.log(`  send → turn_ended: ${fmt(plainTotal)}`);
  console.log(
    `  server time per model delta (first text event → message_completed, / ${PLAIN_DELTAS}): ${fmt(perDelta, "ms", 2)}`,
  );
  console.log(`  text_delta events stored and sent per answer: ${fmt(storedPerAnswer, "", 0)}`);

  // Catch-up: conversations whose answers streamed 1,000 and 10,000 model deltas in all.
  for (const turns of [1, 10]) {
    const id = await newConversation(`long ${turns}`);
    for (let t = 0; t < turns; t++) await turn(id, "bench long", t);
    const ws: number[] = [];
    const sse: number[] = [];
    let last = { ws: { frames: 0, bytes: 0 }, sse: { frames: 0, bytes: 0 } };
    for (let i = 0; i < RUNS; i++) {
      const w = await wsCatchUp(id);
      const s = await sseCatchUp(id);
      ws.push(w.ms);
      sse.push(s.ms);
      last = { ws: w, sse: s };
    }
    console.log(
      `Catch-up from 0 of ${turns} finished answer(s), ${turns * LONG_DELTAS} model deltas${COMPACT ? " (compact)" : ""}:`,
    );
    console.log(
      `  WebSocket resume → synced: ${fmt(ws)}; ${last.ws.frames} events, ${(last.ws.bytes / 1024).toFixed(0)} KiB`,
    );
    console.log(
      `  SSE GET /events to its end: ${fmt(sse)}; ${last.sse.frames} events, ${(last.sse.bytes / 1024).toFixed(0)} KiB`,
    );
  }
  console.log("(local machine under wrangler dev, aimock answering at once; Cloudflare's differs)");
} finally {
  await stack.stop();
}
