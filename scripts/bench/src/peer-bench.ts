// See ../peer.mjs. Our app and Cloudflare's agents-starter side by side under `wrangler dev` (our
// wrangler, so the same workerd), both streaming from one aimock at zero latency, each driven as
// its own web client drives it, turns interleaved (ours, peer, peer, ours, …) so the machine's
// load falls on both alike. Figures go to stdout as one table; nothing here asserts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startStack } from "../../../tests/e2e/stack";
import { envNumber, failureKinds, Session, type TurnTimes, UNLIMITED_RATES } from "./e2e-session";
import { profileWhile, summarise } from "./cpu-profile";
import { preparePeer, PeerSetupError, startPeer } from "./peer-app";
import { PeerSession } from "./peer-client";
import { assertThreeSteps, PLAIN_DELTAS, PROMPTS, peerBenchFixtures } from "./peer-fixtures";
import { addScriptFigures } from "./peer-script";
import { type AppName, FigureTable } from "./peer-table";
import { workerdRssMiB } from "./workerd-memory";

/** Samples per latency figure (plain, three-step, first turn, catch-up), per app. */
const RUNS = envNumber("BENCH_PEER_RUNS", 20);
/** New conversations started at once, and how many such crowds per app. */
const CROWD = envNumber("BENCH_PEER_CROWD", 50);
const CROWD_ROUNDS = envNumber("BENCH_PEER_CROWD_ROUNDS", 2);
/** Plain turns stored before the catch-up is timed (20 × 50 deltas ≈ 1,100 events unmerged). */
const CATCHUP_TURNS = envNumber("BENCH_PEER_CATCHUP_TURNS", 20);
/** New conversations per app (one turn each) before the runtime's memory is read; 0 skips it. */
const MEMORY_CONVERSATIONS = envNumber("BENCH_PEER_MEMORY_CONVERSATIONS", 400);
/** `wrangler check startup` runs per script (the median is reported). */
const STARTUP_RUNS = envNumber("BENCH_PEER_STARTUP_RUNS", 7);
/**
 * Turns per CPU profile; when set, the bench only profiles (ours unminified, so its functions
 * have names): where each app's time goes.
 */
const PROFILE_TURNS = envNumber("BENCH_PEER_PROFILE", 0);
/** Where to keep the .cpuprofile files (DevTools opens them); not kept without it. */
const PROFILE_DIR = process.env.BENCH_PEER_PROFILE_DIR;

let checkout;
try {
  checkout = preparePeer(process.env.PEER_DIR);
} catch (e) {
  if (!(e instanceof PeerSetupError)) throw e;
  console.log(`peer bench not run: ${e.message}`);
  // Skipped, not failed, when no peer was named: `npm run bench` runs every bench.
  process.exit(process.env.PEER_DIR ? 1 : 0);
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
console.log(
  `ours vs agents-starter (${checkout.dir}); BENCH_PEER_RUNS=${RUNS} BENCH_PEER_CROWD=${CROWD} BENCH_PEER_CROWD_ROUNDS=${CROWD_ROUNDS} BENCH_PEER_CATCHUP_TURNS=${CATCHUP_TURNS} BENCH_PEER_STARTUP_RUNS=${STARTUP_RUNS} BENCH_PEER_MEMORY_CONVERSATIONS=${MEMORY_CONVERSATIONS}; load average ${load()}`,
);
console.log(`the peer runs patched to reach aimock:\n${checkout.patch}`);

const table = new FigureTable();
const work = mkdtempSync(join(tmpdir(), "bench-peer-"));

/** Runs `ours` and `peer` `runs` times, alternating which goes first. */
async function interleaved(
  runs: number,
  step: (app: AppName, i: number) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < runs; i++) {
    const order: AppName[] = i % 2 === 0 ? ["ours", "peer"] : ["peer", "ours"];
    for (const app of order) await step(app, i);
  }
}

function record(prefix: string, app: AppName, t: TurnTimes): void {
  if (t.firstDelta !== null) table.add(`${prefix}: send → first text delta`, app, t.firstDelta);
  table.add(`${prefix}: send → final event`, app, t.final);
}

const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || undefined;

// The script figures first: they need no server, and the servers' idle work does not disturb them.
if (PROFILE_TURNS === 0) addScriptFigures(table, checkout, STARTUP_RUNS, work);

writeFileSync(join(work, "index.html"), "<!doctype html><title>bench</title>");
const stack = await startStack(peerBenchFixtures, {
  assetsDir: work,
  // BENCH_LOG_LEVEL=info: ours writes its info lines as deployed (wrangler.toml's local LOG_LEVEL
  // writes warnings and errors only).
  vars: { ...UNLIMITED_RATES, ...(LOG_LEVEL && { LOG_LEVEL }) },
  // A profile names our functions only when the script is not minified.
  devArgs: PROFILE_TURNS > 0 ? ["--minify=false"] : [],
  // The inspector then shows the API worker (profiles), not the PDF text worker.
  withoutPdfText: true,
});
const peerApp = await startPeer(checkout, stack.mock.url).catch(async (e: unknown) => {
  await stack.stop();
  throw e;
});
/** Both apps answer with the same model through the same OpenAI chat-completions endpoint. */
const OURS_MODEL = { provider: "openai", model: "gpt-4o-mini" };
let names = 0;
const newPeerName = () => `bench-${process.pid}-${names++}`;

/**
 * As the web client's New conversation: the socket creates it (`?new=1`), signed in as the
 * browser is; no request before it.
 */
const oursOpen = (): Promise<Session> => Session.create(stack, OURS_MODEL);

/** Turns in one conversation per app, one after another; the first of each is a warm-up. */
async function repeatedTurns(
  prefix: string,
  ours: string,
  peer: string,
  check?: (from: number, app: string) => void,
): Promise<void> {
  const oursSession = await oursOpen();
  const peerSession = await PeerSession.open(peerApp.url, newPeerName());
  let from = stack.mock.getRequests().length;
  await oursSession.turn(ours);
  if (check) check(from, "ours");
  from = stack.mock.getRequests().length;
  await peerSession.turn(peer);
  if (check) check(from, "the peer");
  await interleaved(RUNS, async (app) => {
    const t = await atMock(`${prefix}: send → model request at aimock`, app, () =>
      app === "ours" ? oursSession.turn(ours) : peerSession.turn(peer),
    );
    record(prefix, app, t);
  });
  oursSession.close();
  peerSession.close();
}

/**
 * Runs one turn and adds how long after its start the model's first request reached aimock (by
 * aimock's clock, in this process: the app's own work before it asks the model). Turns must not
 * overlap for this to name the right request.
 */
async function atMock<T>(figure: string, app: AppName, run: () => Promise<T>): Promise<T> {
  const before = stack.mock.getRequests().length;
  const started = Date.now();
  const result = await run();
  const request = stack.mock.getRequests()[before];
  if (request) table.add(figure, app, request.timestamp - started);
  return result;
}

/** From "I want a new conversation" to its first answer's final event. */
async function firstTurn(app: AppName, timeoutMs?: number): Promise<number> {
  const started = performance.now();
  if (app === "ours") {
    const session = await oursOpen();
    try {
      await session.turn(PROMPTS.plain, timeoutMs);
    } finally {
      session.close();
    }
  } else {
    const session = await PeerSession.open(peerApp.url, newPeerName());
    try {
      await session.turn(PROMPTS.plain, timeoutMs, false);
    } finally {
      session.close();
    }
  }
  return performance.now() - started;
}

async function crowd(app: AppName): Promise<void> {
  // wrangler dev runs every object on one thread: a crowd waits its turn.
  const timeoutMs = Math.max(60_000, CROWD * 3_000);
  const logs = app === "ours" ? stack.logs() : peerApp.logs();
  const started = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: CROWD }, () => firstTurn(app, timeoutMs)),
  );
  const wall = performance.now() - started;
  const figure = `${CROWD} new conversations at once: want → final event`;
  for (const r of results) if (r.status === "fulfilled") table.add(figure, app, r.value);
  const errors = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  table.note(
    figure,
    `${app}: all done in ${wall.toFixed(0)} ms, errors ${errors.length}${errors.length ? ` (${failureKinds(errors)})` : ""}`,
  );
  // What the app logged while the crowd ran, for failures the client only sees as "failed".
  if (errors.length > 0) {
    const logged = (app === "ours" ? stack.logs() : peerApp.logs()).slice(logs.length);
    const lines = logged.split("\n").filter((l) => /error|fail|exceed/i.test(l));
    console.log(
      `${app}'s log during the crowd, error lines (last 5):\n${lines.slice(-5).join("\n")}`,
    );
  }
}

/** Seeds one conversation per app with plain turns, then times reopening it RUNS times. */
async function catchUp(): Promise<void> {
  const figure = `reconnect catch-up, ${CATCHUP_TURNS} answers of ${PLAIN_DELTAS} deltas`;
  const ours = await oursOpen();
  const peerName = newPeerName();
  const peer = await PeerSession.open(peerApp.url, peerName);
  for (let i = 0; i < CATCHUP_TURNS; i++) {
    await ours.turn(PROMPTS.plain);
    await peer.turn(PROMPTS.plain);
  }
  ours.close();
  peer.close();
  let oursReceived = "";
  let peerReceived = "";
  await interleaved(RUNS, async (app) => {
    const started = performance.now();
    if (app === "ours") {
      const session = await Session.open(stack, ours.conversationId, { compact: true });
      table.add(figure, app, performance.now() - started);
      const got = session.received();
      oursReceived = `${got.frames} frames, ${(got.chars / 1024).toFixed(1)} KiB`;
      session.close();
    } else {
      const got = await PeerSession.reopen(peerApp.url, peerName);
      table.add(figure, app, performance.now() - started);
      peerReceived = `${got.messages} messages, ${(got.chars / 1024).toFixed(1)} KiB`;
      got.session.close();
    }
  });
  table.note(
    figure,
    `ours: socket + resume (compact, batched) → synced, ${oursReceived}; peer: socket and GET get-messages at once, ${peerReceived}`,
  );
}

/**
 * CPU profiles of each app's workers over PROFILE_TURNS first turns one after another, as many
 * at once, then as many plain turns in one conversation.
 */
async function profiles(): Promise<void> {
  for (const app of ["ours", "peer"] as AppName[]) {
    const port = app === "ours" ? stack.inspectorPort : peerApp.inspectorPort;
    // Each workload: what it opens untimed, then the profiled turns.
    const workloads: Array<[string, () => Promise<() => Promise<void>>]> = [
      [
        "first turns",
        async () => async () => {
          for (let i = 0; i < PROFILE_TURNS; i++) await firstTurn(app);
        },
      ],
      [
        "new conversations at once",
        async () => async () => {
          await Promise.allSettled(
            Array.from({ length: PROFILE_TURNS }, () => firstTurn(app, 120_000)),
          );
        },
      ],
      [
        "plain turns in one conversation (after its first)",
        async () => {
          const session =
            app === "ours" ? await oursOpen() : await PeerSession.open(peerApp.url, newPeerName());
          await session.turn(PROMPTS.plain);
          return async () => {
            for (let i = 0; i < PROFILE_TURNS; i++) await session.turn(PROMPTS.plain);
            session.close();
          };
        },
      ],
    ];
    for (const [label, prepare] of workloads) {
      const got = await profileWhile(port, await prepare());
      for (const [title, profile] of got) {
        console.log(`\nCPU profile, ${app}, ${PROFILE_TURNS} ${label}, ${title}:`);
        console.log(summarise(profile).join("\n"));
        if (PROFILE_DIR) {
          const file = join(
            PROFILE_DIR,
            `${app}-${label}-${title}.cpuprofile`.replace(/[^\w.-]+/g, "-"),
          );
          mkdirSync(PROFILE_DIR, { recursive: true });
          writeFileSync(file, JSON.stringify(profile.profile));
          console.log(`  written to ${file}`);
        }
      }
    }
  }
}

/**
 * What each app's runtime keeps: the resident memory of its workerd before and after
 * MEMORY_CONVERSATIONS first turns, run 20 at a time, the apps' batches alternating. First, from
 * runtimes that served one turn each: after the crowds, a runtime reuses memory it already holds,
 * and the growth says little (ours 51 MiB, the peer's 9 over 100 conversations in one such run).
 */
async function memory(): Promise<void> {
  const rss = (app: AppName) => workerdRssMiB(app === "ours" ? stack.pid() : peerApp.pid());
  const settle = () => new Promise((r) => setTimeout(r, 3_000));
  await settle();
  const before = { ours: rss("ours"), peer: rss("peer") };
  const errors = { ours: 0, peer: 0 };
  const batch = 20;
  for (let done = 0; done < MEMORY_CONVERSATIONS; done += batch) {
    const n = Math.min(batch, MEMORY_CONVERSATIONS - done);
    const order: AppName[] = (done / batch) % 2 === 0 ? ["ours", "peer"] : ["peer", "ours"];
    for (const app of order) {
      const results = await Promise.allSettled(
        Array.from({ length: n }, () => firstTurn(app, 120_000)),
      );
      errors[app] += results.filter((r) => r.status === "rejected").length;
    }
  }
  // Idle work (outbox flushes, closed sockets) settles before the reading.
  await settle();
  const after = { ours: rss("ours"), peer: rss("peer") };
  const figure = `runtime memory (workerd RSS) grown over ${MEMORY_CONVERSATIONS} new conversations`;
  if (before.ours === null || before.peer === null || after.ours === null || after.peer === null) {
    table.note(figure, "not measured: no workerd found under one of the apps' wrangler dev");
    return;
  }
  table.set(figure, "MiB", after.ours - before.ours, after.peer - before.peer);
  const span = (app: AppName) =>
    `${app} ${before[app]!.toFixed(0)} → ${after[app]!.toFixed(0)} MiB (errors ${errors[app]})`;
  table.note(figure, `${span("ours")}; ${span("peer")}`);
}

/** Every latency figure, the apps interleaved. */
async function figures(): Promise<void> {
  if (MEMORY_CONVERSATIONS > 0) {
    await firstTurn("ours");
    await firstTurn("peer");
    await memory();
    // aimock keeps the last 1,000 requests; the figures below find theirs by index from here.
    stack.mock.clearRequests();
  }
  await repeatedTurns(`plain answer (${PLAIN_DELTAS} deltas)`, PROMPTS.plain, PROMPTS.plain);
  await repeatedTurns(
    "three-step turn (two tool calls, then the answer)",
    PROMPTS.oursThreeSteps,
    PROMPTS.peerThreeSteps,
    (from, app) => assertThreeSteps(stack.mock, from, app),
  );
  await firstTurn("ours"); // warms our MCP worker's path and the first-turn code
  await firstTurn("peer");
  await interleaved(RUNS, async (app) =>
    table.add(
      "first turn of a new conversation: want → final event",
      app,
      await atMock("first turn of a new conversation: want → model request at aimock", app, () =>
        firstTurn(app),
      ),
    ),
  );
  table.note(
    "first turn of a new conversation: want → final event",
    "ours: a socket that creates the conversation (?new=1, as the web client's New conversation) + send; peer: socket to a new agent name + send",
  );
  for (let round = 0; round < CROWD_ROUNDS; round++)
    for (const app of (round % 2 === 0 ? ["ours", "peer"] : ["peer", "ours"]) as AppName[])
      await crowd(app);
  await catchUp();
}

try {
  console.log(`servers up (ours ${stack.url}, peer ${peerApp.url}); load average ${load()}`);
  // wrangler dev stores every span and log of both apps in a local SQLite on the workers' thread
  // (its local explorer); deployed, traces cost the worker nothing. Ours makes more spans.
  console.log(
    `wrangler's local trace store: ${process.env.X_LOCAL_OBSERVABILITY?.toLowerCase() === "false" ? "off" : "on"} (X_LOCAL_OBSERVABILITY=false turns it off for both apps)`,
  );
  console.log(
    `our LOG_LEVEL: ${LOG_LEVEL ?? "warn (wrangler.toml's local default)"} (BENCH_LOG_LEVEL=info writes every request's and turn's line, as deployed)`,
  );
  if (PROFILE_TURNS > 0) await profiles();
  else {
    await figures();
    console.log(`load average at the end ${load()}`);
    table.print();
  }
} finally {
  await peerApp.stop();
  await stack.stop();
  rmSync(work, { recursive: true, force: true });
}
