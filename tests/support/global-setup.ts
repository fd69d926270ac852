// Starts aimock on 127.0.0.1 for the API tests: the official provider SDKs talk to it over HTTP.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { LLMock } from "@copilotkit/aimock";
import type { TestProject } from "vitest/node";
import { startApprovalServer } from "./approval-server";
import { startChangingServer } from "./changing-server";
import { addEverythingContentFixtures, startEverythingServer } from "./everything-server";
import { addFaultyServerFixtures, startFaultyServer } from "./faulty-server";
import { addQuirkyServerFixtures, startQuirkyServer } from "./quirky-server";
import { addAuditFixtures } from "./audit-fixtures";
import { addGuardFixtures } from "./guard-fixtures";
import { addTimingFixtures } from "./timing-fixtures";
import { addContextFixtures, addTitleFixtures } from "./context-fixtures";
import { addLoopFixtures } from "./loop-fixtures";
import { addOAuthFixtures } from "./oauth-fixtures";
import { startProtectedServer } from "./oauth-protected-server";
import { addHousekeepingUsageFixtures, addUsageFixtures } from "./usage-fixtures";
import { addBranchFixtures } from "./branch-fixtures";
import { startLookupServer } from "./lookup-server";
import { addRouteFixtures } from "./route-fixtures";
import { addOpenAiCompatFixtures } from "./openai-compat-fixtures";
import { startManyToolsServer } from "./many-tools-server";
import { addToolCallingFixtures } from "./tool-calling-fixtures";

declare module "vitest" {
  export interface ProvidedContext {
    aimockUrl: string;
    everythingUrl: string;
    faultyUrl: string;
    /** Paged tool lists, output schemas, cancellable calls: `${quirkyUrl}/<channel>/mcp`. */
    quirkyUrl: string;
    changingUrl: string;
    /** OAuth-protected MCP servers: a working one, and ones that fail in one way each. */
    oauth: { url: string; issuer: string };
    oauthFaults: {
      token500: string;
      registrationRefused: string;
      badMetadata: string;
      /** Its issuer takes POST /test/authorization-endpoint {url}: the page its metadata names. */
      oddAuthorization: { url: string; issuer: string };
    };
    approvalUrl: string;
    /** A URL on 127.0.0.1 where nothing listens: a provider that is down (OLLAMA_BASE_URL). */
    closedPortUrl: string;
    /** An MCP server with a read-only `lookup` tool that counts its runs (GET /runs). */
    lookupUrl: string;
    /** MCP servers with 150 tools each: `${manyToolsUrl}/<name>/mcp`. */
    manyToolsUrl: string;
  }
}

/**
 * A reply long enough to cut a WebSocket 20 times while it streams: about 190 chunks, 25 ms
 * apart, so the conversation's 50 ms merging of deltas (delta-coalescer.ts) still sends about 95
 * events.
 */
export const LONG_REPLY = Array.from(
  { length: 60 },
  (_, i) => `Sentence ${i + 1} of a long streamed answer.`,
).join(" ");

/** 200 characters, streamed 4 at a time: 50 model deltas. */
export const FIFTY_DELTA_REPLY = Array.from(
  { length: 50 },
  (_, i) => `w${String(i).padStart(2, "0")} `,
).join("");

export default async function setup(project: TestProject) {
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent" });
  addHousekeepingUsageFixtures(mock);
  addTitleFixtures(mock);
  addFaultyServerFixtures(mock);
  addQuirkyServerFixtures(mock);
  addEverythingContentFixtures(mock);
  // Before the loop's: a branch's reused call must not meet their generic repeat fixtures.
  addBranchFixtures(mock);
  mock.onMessage(/long answer/, { content: LONG_REPLY }, { chunkSize: 12, latency: 25 });
  mock.onMessage(
    /slow answer/,
    { content: "This answer takes a while to arrive." },
    { chunkSize: 4, latency: 400 },
  );
  // 50 deltas as fast as the model can send them: the event log merges them (event-log.test.ts).
  mock.onMessage(/fifty deltas/, { content: FIFTY_DELTA_REPLY }, { chunkSize: 4 });
  addContextFixtures(mock);
  addAuditFixtures(mock);
  addTimingFixtures(mock);
  addLoopFixtures(mock);
  addOAuthFixtures(mock);
  addUsageFixtures(mock);
  addGuardFixtures(mock);
  addToolCallingFixtures(mock);
  mock.onMessage(/routed question/, { content: "Answered by the fallback model." });
  addRouteFixtures(mock);
  addOpenAiCompatFixtures(mock);
  mock.onMessage(/.*/, { content: "Hello! I am a mock model." });
  await mock.start();
  const everything = await startEverythingServer();
  const faulty = await startFaultyServer();
  const quirky = await startQuirkyServer();
  const changing = await startChangingServer();
  const oauth = await Promise.all([
    startProtectedServer(),
    startProtectedServer("token_500"),
    startProtectedServer("registration_refused"),
    startProtectedServer("bad_metadata"),
    startProtectedServer("odd_authorization"),
  ]);
  project.provide("oauth", { url: oauth[0].url, issuer: oauth[0].issuer });
  project.provide("oauthFaults", {
    token500: oauth[1].url,
    registrationRefused: oauth[2].url,
    badMetadata: oauth[3].url,
    oddAuthorization: { url: oauth[4].url, issuer: oauth[4].issuer },
  });
  project.provide("changingUrl", changing.url);
  const approval = await startApprovalServer();
  project.provide("approvalUrl", approval.url);
  project.provide("faultyUrl", faulty.url);
  project.provide("quirkyUrl", quirky.url);
  project.provide("aimockUrl", mock.url);
  project.provide("everythingUrl", everything.url);
  project.provide("closedPortUrl", await closedPortUrl());
  const lookupServer = await startLookupServer();
  project.provide("lookupUrl", lookupServer.url);
  const manyTools = await startManyToolsServer();
  project.provide("manyToolsUrl", manyTools.url);
  return async () => {
    await mock.stop();
    everything.stop();
    await faulty.stop();
    await quirky.stop();
    await changing.stop();
    await Promise.all(oauth.map((s) => s.stop()));
    await approval.stop();
    await lookupServer.stop();
    await manyTools.stop();
  };
}

/** A port that was free a moment ago and is closed now: connections to it are refused. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
