// Cloudflare's agents-starter (the peer of `npm run bench -- peer`), run from a checkout the user
// names in PEER_DIR; never copied into this repository. Its model is Workers AI through a remote
// binding, which cannot run offline, so the bench writes a patched copy of its server beside the
// original (src/server.bench-aimock.ts, and a config that points at it): one expression swapped
// so the same AI SDK `streamText` call reaches aimock through the AI SDK's OpenAI provider. The
// original files are left as they are.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { freePort } from "../../../tests/e2e/stack";

const root = new URL("../../../", import.meta.url).pathname;
/** Our wrangler runs both apps, so both get the same workerd. */
export const wranglerBin = join(root, "node_modules/.bin/wrangler");
export const quietEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};

/** The peer cannot be run as asked: what is wrong and what to do about it. */
export class PeerSetupError extends Error {
  override name = "PeerSetupError";
}

const HOW_TO_GET =
  "Get it with `git clone https://github.com/cloudflare/agents-starter /tmp/agents-starter && " +
  "(cd /tmp/agents-starter && npm install)`, then run `PEER_DIR=/tmp/agents-starter npm run bench -- peer`.";

/** The expression the patch replaces, and what stands in for it (the model it returns). */
const WORKERS_AI = "createWorkersAI({ binding: this.env.AI })";
const AIMOCK_MODEL =
  '((_model: string, _settings?: unknown) => createOpenAI({ baseURL: (this.env as unknown as { BENCH_OPENAI_BASE_URL: string }).BENCH_OPENAI_BASE_URL, apiKey: "bench" }).chat("gpt-4o-mini"))';
const IMPORT_OPENAI = 'import { createOpenAI } from "@ai-sdk/openai";\n';
export const PATCHED_SERVER = "src/server.bench-aimock.ts";
const PATCHED_CONFIG = "wrangler.bench-aimock.json";

const PeerPackage = z.object({ dependencies: z.record(z.string(), z.string()) });
const PeerConfig = z.looseObject({ main: z.string() });

export interface PeerCheckout {
  dir: string;
  /** The config the bench runs (patched server, no remote AI binding). */
  benchConfig: string;
  /** The peer's own config, for building its script as it would be deployed. */
  ownConfig: string;
  /** What was changed, to print. */
  patch: string;
}

/** Finds the checkout in PEER_DIR and writes the patched server and config beside its own. */
export function preparePeer(dir: string | undefined): PeerCheckout {
  if (!dir) throw new PeerSetupError(`PEER_DIR is not set. ${HOW_TO_GET}`);
  const server = join(dir, "src/server.ts");
  const ownConfig = join(dir, "wrangler.jsonc");
  for (const file of [server, ownConfig, join(dir, "package.json")])
    if (!existsSync(file))
      throw new PeerSetupError(
        `${file} is missing: PEER_DIR is not an agents-starter checkout. ${HOW_TO_GET}`,
      );
  if (!existsSync(join(dir, "node_modules/ai/package.json")))
    throw new PeerSetupError(`${dir} has no node_modules: run \`npm install\` there first.`);
  ensureOpenAIProvider(dir);

  const source = readFileSync(server, "utf8");
  if (!source.includes(WORKERS_AI))
    throw new PeerSetupError(
      `${server} no longer contains \`${WORKERS_AI}\`, the model the bench points at aimock: update WORKERS_AI in scripts/bench/src/peer-app.ts.`,
    );
  writeFileSync(
    join(dir, PATCHED_SERVER),
    IMPORT_OPENAI + source.replace(WORKERS_AI, AIMOCK_MODEL),
  );

  // wrangler.jsonc: JSON with comments allowed; the starter's has none, so plain JSON is tried.
  let config: z.infer<typeof PeerConfig>;
  try {
    config = PeerConfig.parse(JSON.parse(readFileSync(ownConfig, "utf8")));
  } catch (e) {
    throw new PeerSetupError(`${ownConfig} could not be read as JSON (${String(e)}).`);
  }
  const { ai: _remoteAi, ...local } = config;
  writeFileSync(
    join(dir, PATCHED_CONFIG),
    JSON.stringify({ ...local, main: PATCHED_SERVER }, null, 2),
  );
  return {
    dir,
    benchConfig: join(dir, PATCHED_CONFIG),
    ownConfig,
    patch: [
      `${PATCHED_SERVER} (a copy of src/server.ts):`,
      `  + ${IMPORT_OPENAI.trim()}`,
      `  - ${WORKERS_AI}`,
      `  + ${AIMOCK_MODEL}`,
      `${PATCHED_CONFIG} (a copy of wrangler.jsonc): main = ${PATCHED_SERVER}, the remote "ai" binding left out`,
    ].join("\n"),
  };
}

/** The AI SDK's OpenAI provider of the major that fits the peer's `ai` (v6 → v3), without saving. */
function ensureOpenAIProvider(dir: string): void {
  if (existsSync(join(dir, "node_modules/@ai-sdk/openai/package.json"))) return;
  const pkg = PeerPackage.parse(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")));
  const aiMajor = Number(/\d+/.exec(pkg.dependencies.ai ?? "")?.[0]);
  if (!aiMajor) throw new PeerSetupError(`${dir}/package.json does not depend on "ai".`);
  const spec = `@ai-sdk/openai@^${aiMajor - 3}`;
  console.log(`installing ${spec} in ${dir} (not saved to its package.json)`);
  const r = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", spec], {
    cwd: dir,
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new PeerSetupError(`npm install ${spec} failed in ${dir}:\n${r.stdout}${r.stderr}`);
}

export interface PeerApp {
  url: string;
  inspectorPort: number;
  /** The `wrangler dev` process, under which its workerd runs. */
  pid(): number | undefined;
  logs(): string;
  stop(): Promise<void>;
}

/** `wrangler dev` of the patched peer on 127.0.0.1, its model at `mockUrl` (aimock). */
export async function startPeer(peer: PeerCheckout, mockUrl: string): Promise<PeerApp> {
  const state = mkdtempSync(join(tmpdir(), "bench-peer-"));
  const port = await freePort();
  const inspectorPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    wranglerBin,
    [
      "dev",
      "-c",
      peer.benchConfig,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      state,
      "--inspector-port",
      String(inspectorPort),
      "--var",
      `BENCH_OPENAI_BASE_URL:${mockUrl}/v1`,
    ],
    { cwd: peer.dir, env: quietEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    rmSync(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      // Wakes one agent: the app is up once an agent answers.
      const res = await fetch(`${url}/agents/chat-agent/bench-ready/get-messages`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new PeerSetupError(`the peer's wrangler dev did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, inspectorPort, pid: () => child.pid, logs: () => output, stop };
}
