// The client command that `@modelcontextprotocol/conformance client` runs for each authorization
// scenario: `node --import tsx tests/conformance/mcp-auth-client.ts <server url>`. It drives our
// own sign-in code as a user would: the connection test says the server needs a sign-in, Connect
// (startSignIn), the consent page redirects back to the callback (finishSignIn), then a turn's
// transport with the user's stored sign-in lists and calls the tools; when the server asks for
// more access, the user signs in again once. State lives in a real (local) D1, as deployed.
// Exit code 0 means every step worked; the conformance tool judges the requests it saw.
import { z } from "zod";
import { newMcpClient, newMcpTransport, internetRoute } from "../../durable-objects/mcp/mcp-client";
import { backgroundProvider } from "../../durable-objects/mcp/oauth/background-provider";
import { callbackUrl } from "../../durable-objects/mcp/oauth/client-metadata";
import { secretBox } from "../../durable-objects/mcp/oauth/secret-box";
import { MoreAccessRequiredError } from "../../durable-objects/mcp/oauth/sign-in-errors";
import { CallbackQuery } from "../../durable-objects/mcp/oauth/callback-query";
import {
  finishSignIn,
  type SignInDeps,
  startSignIn,
} from "../../durable-objects/mcp/oauth/sign-in-flow";
import { probeServer } from "../../durable-objects/mcp/probe-server";
import { APP_ORIGIN } from "./app-origin";
import { openLocalD1 } from "./local-d1";

const USER_ID = "conformance-user";
const SERVER = { id: "conformance-server", name: "conformance", headers: {} };

/** What the conformance tool passes for scenarios that need more than a URL (pre-registration). */
const Context = z.looseObject({
  name: z.string(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});
type Context = z.infer<typeof Context>;

function readContext() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? Context.parse(JSON.parse(raw)) : undefined;
}

const log = (line: string) => console.log(`[${process.env.MCP_CONFORMANCE_SCENARIO}] ${line}`);

/** One user with one MCP server, as the app stores them. */
interface Setup {
  deps: SignInDeps;
  serverUrl: string;
  context: Context | undefined;
}

const storedSignIn = ({ deps }: Setup) =>
  backgroundProvider(deps.db, deps.box, USER_ID, SERVER, APP_ORIGIN);

/** The connection test when the server is added: it must say "needs sign-in". */
async function connectionTest(setup: Setup) {
  const test = await probeServer({
    url: setup.serverUrl,
    via: internetRoute({ allowLocal: true }),
    authProvider: storedSignIn(setup),
  });
  if (test.ok || test.error.code !== "needs_sign_in")
    throw new Error(`the connection test should say "needs sign-in": ${JSON.stringify(test)}`);
  log(`connection test: ${test.error.message}`);
}

/** Connect, the consent page, and the callback. */
async function signIn({ deps, serverUrl, context }: Setup) {
  const started = await startSignIn(
    deps,
    USER_ID,
    { ...SERVER, url: serverUrl },
    {
      display: "popup",
      ...(context?.client_id && { clientId: context.client_id }),
      ...(context?.client_secret && { clientSecret: context.client_secret }),
    },
  );
  if (started.kind === "failed") throw new Error(`Connect failed: ${started.problem.message}`);
  if (started.kind === "connected") return;
  // The popup: the conformance authorization server consents at once and sends the browser
  // back to our callback with the code and our state.
  const consent = await fetch(started.authorizationUrl, { redirect: "manual" });
  const location = consent.headers.get("location");
  if (!location) throw new Error(`the consent page answered ${consent.status}, no redirect`);
  const back = new URL(location);
  if (`${back.origin}${back.pathname}` !== callbackUrl(APP_ORIGIN))
    throw new Error(`the consent page redirected to ${back.href}, not to our callback`);
  const query = CallbackQuery.parse(Object.fromEntries(back.searchParams));
  const finished = await finishSignIn(deps, query, USER_ID);
  if (!finished.ok) throw new Error(`the callback failed: ${finished.message}`);
  log(`signed in: ${finished.message}`);
}

/** A turn's connection (the same transport and provider): list the tools and call each. */
async function useTools(setup: Setup) {
  const provider = storedSignIn(setup);
  if (!provider) throw new Error("a server without an Authorization header signs in by OAuth");
  const client = newMcpClient();
  const transport = newMcpTransport({
    url: setup.serverUrl,
    headers: {},
    route: internetRoute({ allowLocal: true }),
    authProvider: provider,
    onResponse: (response) => provider.observeResponse(response),
  });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: {} });
      log(`called ${tool.name}: ${JSON.stringify(result.content)}`);
    }
  } finally {
    await client.close();
  }
}

async function main(serverUrl: string) {
  const local = await openLocalD1();
  try {
    const { db } = local;
    await db.prepare("INSERT INTO users (id, name) VALUES (?, ?)").bind(USER_ID, "Ada").run();
    await db
      .prepare("INSERT INTO mcp_servers (id, user_id, name, url) VALUES (?, ?, ?, ?)")
      .bind(SERVER.id, USER_ID, SERVER.name, serverUrl)
      .run();
    const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    const box = await secretBox({ APP_ENV: "production", OAUTH_ENCRYPTION_KEY: `conf:${key}` });
    // The conformance servers listen on localhost over http: local development's URL rules.
    const deps: SignInDeps = { db, box, origin: APP_ORIGIN, allowLocal: true };
    const setup: Setup = { deps, serverUrl, context: readContext() };

    await connectionTest(setup);
    await signIn(setup);
    try {
      await useTools(setup);
    } catch (err) {
      if (!(err instanceof MoreAccessRequiredError)) throw err;
      // What the user does with "Sign in again" in Settings; once, so a server that never
      // grants enough does not loop.
      log(`more access: ${err.message}`);
      await signIn(setup);
      await useTools(setup);
    }
    log("done");
  } finally {
    await local.dispose();
  }
}

const serverUrl = z.string().url().parse(process.argv.at(-1));
main(serverUrl).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
