// Starts the whole app as a user would run it: `wrangler dev` with both workers and local D1,
// R2 and DOs in a temporary directory, plus aimock on 127.0.0.1 standing in for the providers.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LLMock } from "@copilotkit/aimock";
import { startFixtureServer } from "../../workers/mcp-remote/test/fixture-server";

const root = fileURLToPath(new URL("../..", import.meta.url));
const wranglerBin = join(root, "node_modules/.bin/wrangler");
const quiet = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};

export interface Stack {
  url: string;
  token: string;
  mock: LLMock;
  /** Everything wrangler dev printed so far (its log, the workers' console). */
  logs(): string;
  /** Stops wrangler dev and starts it again on the same port and persisted state (a deploy). */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** The process id of `wrangler dev` (its workerd runs as a child), while it runs. */
  pid(): number | undefined;
  /** The users asked for with `moreUsers`, each with a token of their own. */
  users: Array<{ id: string; name: string; token: string }>;
  /** wrangler dev's DevTools port (127.0.0.1): benches read the workers' JS heap through it. */
  inspectorPort: number;
}

export interface StackOptions {
  /**
   * Extra variables for the API worker (and its Durable Objects), e.g. APPROVAL_TTL_SECONDS; a
   * function gets aimock's URL (e.g. to serve as OLLAMA_BASE_URL).
   */
  vars?: Record<string, string> | ((mockUrl: string) => Record<string, string>);
  /** Serve the static assets from here instead of web/dist (which a running `npm start` owns). */
  assetsDir?: string;
  /** Names of users to create besides 'e2e' (several people in one conversation). */
  moreUsers?: string[];
  /** More arguments for `wrangler dev` (e.g. `--minify=false` for a readable CPU profile). */
  devArgs?: string[];
  /**
   * Leaves the PDF text worker out (the API then answers that PDF text is unavailable). For
   * benches that read the API worker through the inspector: with it, `wrangler dev`'s inspector
   * shows the PDF text worker instead.
   */
  withoutPdfText?: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function wrangler(args: string[]): void {
  const r = spawnSync(wranglerBin, args, { cwd: root, env: quiet, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
}

/**
 * Local state with every migration applied: made once per set of migrations (and wrangler and
 * its config), and copied into each stack's state. Applying them is a wrangler run of about 8 s of CPU.
 */
function migratedState(): string {
  const migrations = join(root, "migrations");
  const key = createHash("sha256");
  for (const file of ["node_modules/wrangler/package.json", "wrangler.toml"])
    key.update(readFileSync(join(root, file)));
  for (const name of readdirSync(migrations)
    .filter((n) => n.endsWith(".sql"))
    .sort())
    key.update(name).update(readFileSync(join(migrations, name)));
  const dir = join(tmpdir(), `thinking-chat-migrated-${key.digest("hex").slice(0, 16)}`);
  if (existsSync(dir)) return dir;
  const building = mkdtempSync(join(tmpdir(), "thinking-chat-migrating-"));
  try {
    wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", building]);
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    // Another test file made it meanwhile (the rename failed): theirs is the same.
    if (!existsSync(dir)) throw error;
  }
  return dir;
}

export async function startStack(
  configure: (mock: LLMock) => void,
  options: StackOptions = {},
): Promise<Stack> {
  const state = mkdtempSync(join(tmpdir(), "thinking-chat-e2e-"));
  cpSync(migratedState(), state, { recursive: true });
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent" });
  configure(mock);
  await mock.start();
  // Recorded PubMed, PubTator and ClinicalTrials.gov responses for our MCP worker.
  const outside = await startFixtureServer();

  const token = `tc_${randomBytes(18).toString("base64url")}`;
  const userId = randomUUID();
  const users = (options.moreUsers ?? []).map((name) => ({
    id: randomUUID(),
    name,
    token: `tc_${randomBytes(18).toString("base64url")}`,
  }));
  const hash = createHash("sha256").update(token).digest("hex");
  wrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    state,
    "--yes",
    "--command",
    `INSERT INTO users (id, name) VALUES ('${userId}', 'e2e'); INSERT INTO api_tokens (id, user_id, token_hash) VALUES ('${randomUUID()}', '${userId}', '${hash}');` +
      users.map(userSql).join(""),
  ]);

  // Ports are picked free and handed to wrangler a moment later: another test's server can take
  // one meanwhile, so a start that finds its port taken tries again with new ones (startDev).
  let port = await freePort();
  // `--var` reaches the first worker only: the MCP worker gets its settings from a config of its own.
  const mcpConfig = join(root, `workers/mcp-remote/wrangler.e2e-${port}.toml`);
  const mcpVars: Record<string, string> = {
    GRAPH_CONTEXT_SECRET: "e2e-graph-secret",
    MCP_REMOTE_TOKEN: "e2e-mcp-token",
    EUTILS_BASE_URL: `${outside.url}/eutils`,
    PUBTATOR_BASE_URL: `${outside.url}/pubtator`,
    CLINICALTRIALS_BASE_URL: `${outside.url}/ctgov`,
  };
  writeFileSync(
    mcpConfig,
    readFileSync(join(root, "workers/mcp-remote/wrangler.toml"), "utf8") +
      Object.entries(mcpVars)
        .map(([k, v]) => `${k} = "${v}"\n`)
        .join(""),
  );
  // The API worker's config, pointed at other assets when asked (written beside the original so
  // its relative paths still resolve).
  let apiConfig = "wrangler.toml";
  if (options.assetsDir) {
    apiConfig = join(root, `wrangler.e2e-${port}.toml`);
    writeFileSync(
      apiConfig,
      readFileSync(join(root, "wrangler.toml"), "utf8").replace(
        'directory = "web/dist"',
        `directory = ${JSON.stringify(options.assetsDir)}`,
      ),
    );
  }
  let inspectorPort = await freePort();
  const devArgs = () => [
    "dev",
    "-c",
    apiConfig,
    "-c",
    mcpConfig,
    ...(options.withoutPdfText ? [] : ["-c", "workers/pdf-text/wrangler.toml"]),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    state,
    "--inspector-port",
    String(inspectorPort),
    "--var",
    `ANTHROPIC_BASE_URL:${mock.url}`,
    "--var",
    "ANTHROPIC_API_KEY:e2e-key",
    "--var",
    `OPENAI_BASE_URL:${mock.url}/v1`,
    "--var",
    "OPENAI_API_KEY:e2e-key",
    "--var",
    "GRAPH_CONTEXT_SECRET:e2e-graph-secret",
    "--var",
    "MCP_REMOTE_TOKEN:e2e-mcp-token",
    ...Object.entries(
      typeof options.vars === "function" ? options.vars(mock.url) : (options.vars ?? {}),
    ).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ...(options.devArgs ?? []),
  ];
  let output = "";
  let dev: ChildProcess | null = null;
  const url = () => `http://127.0.0.1:${port}`;
  const stopDev = async () => {
    const running = dev;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((r) => running.once("exit", r));
    running.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (running.exitCode === null && running.signalCode === null) running.kill("SIGKILL");
  };
  const stop = async () => {
    await stopDev();
    await mock.stop();
    await outside.stop();
    rmSync(mcpConfig, { force: true });
    if (apiConfig !== "wrangler.toml") rmSync(apiConfig, { force: true });
    rmSync(state, { recursive: true, force: true });
  };
  /** Starts wrangler dev; a restart keeps the API's port, as a deploy keeps the address. */
  const startDev = async (restarting: boolean, attempt = 1): Promise<void> => {
    const child = spawn(wranglerBin, devArgs(), {
      cwd: root,
      env: quiet,
      stdio: ["ignore", "pipe", "pipe"],
    });
    dev = child;
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const res = await fetch(`${url()}/api/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      // A server another test started meanwhile took one of the ports (ours, or one wrangler
      // picks for the workers' own sockets): another try with new ones.
      if (child.exitCode !== null && attempt < 5 && output.includes("Address already in use")) {
        output = "";
        if (!restarting) port = await freePort();
        inspectorPort = await freePort();
        return startDev(restarting, attempt + 1);
      }
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`wrangler dev did not start:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  await startDev(false);
  const restart = async () => {
    await stopDev();
    await startDev(true);
  };
  const pid = (): number | undefined => (dev as ChildProcess | null)?.pid;
  return {
    url: url(),
    token,
    mock,
    logs: () => output,
    restart,
    stop,
    pid,
    users,
    get inspectorPort() {
      return inspectorPort;
    },
  };
}

/** The SQL that creates a user and their token (names are ours, never input). */
function userSql(user: { id: string; name: string; token: string }): string {
  const hash = createHash("sha256").update(user.token).digest("hex");
  return ` INSERT INTO users (id, name) VALUES ('${user.id}', '${user.name}'); INSERT INTO api_tokens (id, user_id, token_hash) VALUES ('${randomUUID()}', '${user.id}', '${hash}');`;
}
