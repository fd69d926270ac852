// See ../ab.mjs. This checkout and an earlier commit of it (BENCH_AB_BASE), checked out in a
// temporary git worktree, each run by its own e2e stack (`wrangler dev`, local D1, R2 and objects,
// aimock at zero latency); the same turns on both, interleaved (this, base, base, this, …) so the
// machine's load falls on both alike. Figures go to stdout as one table; nothing here asserts.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startStack, type Stack } from "../../../tests/e2e/stack";
import { envNumber, Session, UNLIMITED_RATES } from "./e2e-session";
import { PROMPTS, peerBenchFixtures } from "./peer-fixtures";
import { type AppName, FigureTable } from "./peer-table";

const base = process.env.BENCH_AB_BASE;
if (!base) {
  console.log("A/B bench not run: set BENCH_AB_BASE to the commit to compare this checkout with.");
  // Skipped, not failed: `npm run bench` runs every bench.
  process.exit(0);
}
/** Samples per figure, per side. */
const RUNS = envNumber("BENCH_AB_RUNS", 30);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const git = (...args: string[]) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let commit: string;
try {
  commit = git("rev-parse", "--verify", "--short", `${base}^{commit}`).trim();
} catch {
  console.log(`A/B bench not run: BENCH_AB_BASE=${base} is not a commit of this repository.`);
  process.exit(1);
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
console.log(
  `this checkout vs ${commit} (BENCH_AB_BASE=${base}); BENCH_AB_RUNS=${RUNS}; load average ${load()}`,
);

const work = mkdtempSync(join(tmpdir(), "bench-ab-"));
const tree = join(work, "base");
git("worktree", "add", "--detach", tree, commit);
// The base runs with this checkout's packages: linked, not copied or installed.
symlinkSync(join(root, "node_modules"), join(tree, "node_modules"), "dir");
mkdirSync(join(tree, "web/dist"), { recursive: true });
// The web client is not timed here: an empty page stands in for it.
const assets = join(work, "assets");
mkdirSync(assets);
writeFileSync(join(assets, "index.html"), "<!doctype html><title>bench</title>");

const label: Record<AppName, string> = { ours: "this", peer: commit };
const table = new FigureTable(label);
const stacks: Partial<Record<AppName, Stack>> = {};
try {
  const options = { assetsDir: assets, vars: UNLIMITED_RATES, withoutPdfText: true };
  // The base's own stack module: it builds and serves the base's code.
  const baseModule = (await import(pathToFileURL(join(tree, "tests/e2e/stack.ts")).href)) as {
    startStack: typeof startStack;
  };
  stacks.peer = await baseModule.startStack(peerBenchFixtures, options);
  stacks.ours = await startStack(peerBenchFixtures, options);
  console.log(`servers up; load average ${load()}`);
  await compare(stacks as Record<AppName, Stack>);
  console.log(`load average at the end ${load()}`);
  table.print();
} finally {
  await Promise.all(Object.values(stacks).map((s) => s.stop()));
  try {
    git("worktree", "remove", "--force", tree);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function compare(app: Record<AppName, Stack>): Promise<void> {
  const model = { provider: "openai", model: "gpt-4o-mini" };
  // One conversation per kind of turn and side, as a user keeps talking; the first turn warms up.
  const sessions = {
    plain: {
      ours: await Session.create(app.ours, model),
      peer: await Session.create(app.peer, model),
    },
    tools: {
      ours: await Session.create(app.ours, model),
      peer: await Session.create(app.peer, model),
    },
  };
  for (const side of ["ours", "peer"] as const) {
    await sessions.plain[side].turn(PROMPTS.plain);
    await sessions.tools[side].turn(PROMPTS.oursThreeSteps);
  }
  for (let i = 0; i < RUNS; i++) {
    const order: AppName[] = i % 2 === 0 ? ["ours", "peer"] : ["peer", "ours"];
    for (const side of order) {
      const plain = await sessions.plain[side].turn(PROMPTS.plain);
      if (plain.firstDelta !== null)
        table.add("plain answer: send → first text delta", side, plain.firstDelta);
      table.add("plain answer: send → final event", side, plain.final);

      const tools = await sessions.tools[side].turn(PROMPTS.oursThreeSteps);
      if (tools.firstDelta !== null)
        table.add("three-step turn: send → first text delta", side, tools.firstDelta);
      table.add("three-step turn: send → final event", side, tools.final);

      const started = performance.now();
      const fresh = await Session.create(app[side], model);
      await fresh.turn(PROMPTS.plain);
      table.add(
        "first turn of a new conversation: want → final event",
        side,
        performance.now() - started,
      );
      fresh.close();

      const reopened = performance.now();
      const caughtUp = await Session.open(app[side], sessions.plain[side].conversationId, {
        compact: true,
      });
      table.add("reconnect catch-up of the plain conversation", side, performance.now() - reopened);
      caughtUp.close();
    }
  }
  for (const side of ["ours", "peer"] as const) {
    sessions.plain[side].close();
    sessions.tools[side].close();
  }
  table.note(
    "three-step turn: send → final event",
    "each side's turns are in one conversation, so each has more earlier calls than the one before",
  );
}
