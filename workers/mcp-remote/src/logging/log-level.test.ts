import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { connect, INITIALIZE, messagesOf, rawPost, text, worker } from "../../test/mcp-client";
import type { McpEnv } from "../env";
import { LOG_LEVEL_META_KEY } from "./levels";
import { thresholds } from "./log-filter";

// pubmed_search logs one "info" line per outside call, or a "warning" one when the call fails.
const search = (query: string) => ({ name: "pubmed_search", arguments: { query } });

describe("log levels on a stateless server", () => {
  it("issues a session id at initialize, so a level can follow the client", async () => {
    const init = await worker.fetch(rawPost(INITIALIZE));
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    const mcp = await connect();
    expect(mcp.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("applies logging/setLevel to the session's later requests, and to no other session", async () => {
    const quiet = await connect();
    const chatty = await connect();
    await quiet.client.setLoggingLevel("warning");

    await quiet.client.callTool(search("brca1"));
    await chatty.client.callTool(search("brca1"));
    expect(quiet.logs).toEqual([]);
    expect(chatty.logs.map((l) => l.level)).toEqual(["info"]);

    // A line at the level set, or above it, still arrives.
    const failed = await quiet.client.callTool(search("servererror"));
    expect(text(failed)).toMatch(/HTTP 500/);
    expect(quiet.logs.map((l) => l.level)).toEqual(["warning"]);

    await quiet.client.setLoggingLevel("debug");
    await quiet.client.callTool(search("brca1"));
    expect(quiet.logs.map((l) => l.level)).toEqual(["warning", "info"]);
  });

  it("takes a level given with a single request in _meta, over the session's", async () => {
    const mcp = await connect();
    await mcp.client.callTool({
      ...search("servererror"),
      _meta: { [LOG_LEVEL_META_KEY]: "error" },
    });
    expect(mcp.logs).toEqual([]);
    await mcp.client.callTool({ ...search("brca1"), _meta: { [LOG_LEVEL_META_KEY]: "debug" } });
    expect(mcp.logs.map((l) => l.level)).toEqual(["info"]);
  });

  it("refuses logging/setLevel without a session, saying how to set a level instead", async () => {
    const res = await worker.fetch(
      rawPost({ jsonrpc: "2.0", id: 7, method: "logging/setLevel", params: { level: "error" } }),
    );
    const [answer] = await messagesOf(res);
    expect(answer).toMatchObject({
      id: 7,
      error: { code: -32600, message: expect.stringMatching(/Mcp-Session-Id.*_meta/) },
    });
  });

  it("does not hold a call's log lines when the level store does not answer", async () => {
    const silentStore = {
      idFromName: () => ({}),
      get: () => ({ getLevel: () => new Promise(() => undefined) }),
    };
    const threshold = thresholds(
      { ...env, SESSION_LOG_LEVELS: silentStore } as unknown as McpEnv,
      "5f0c1c9e-4a44-4a57-9d0e-1c2b3a4d5e6f",
      [],
    );
    const started = Date.now();
    expect(await threshold(1)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
