import { describe, expect, it } from "vitest";
import {
  abandonedOutsideRequests,
  connect,
  eventually,
  INITIALIZE,
  outsideRequests,
  rawPost,
  TOKEN,
  workerWith,
} from "../test/mcp-client";

// Outside answers for a query containing "hangs" take a minute; the outside timeout is raised
// far above the test's patience, so only a cancellation can close the outside connection.
const run = workerWith({ OUTSIDE_TIMEOUT_MS: "60000" });
const hangingSearch = (id: number, marker: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "pubmed_search", arguments: { query: `${marker} hangs` } },
});
const asked = (marker: string) => async () =>
  (await outsideRequests()).some((u) => u.includes(marker));
const abandoned = (marker: string) => async () =>
  (await abandonedOutsideRequests()).some((u) => u.includes(marker));

async function session(): Promise<string> {
  const init = await run(rawPost(INITIALIZE));
  await init.text();
  return init.headers.get("mcp-session-id")!;
}

describe("cancellation reaches the outside request a call waits on", () => {
  it("notifications/cancelled stops the named call of that session, and ends its stream", async () => {
    const sid = await session();
    const call = await run(rawPost(hangingSearch(5, "cancelnote"), { "mcp-session-id": sid }));
    const stream = call.text();
    expect(await eventually(asked("cancelnote"))).toBe(true);

    // The same request id from another session names another call.
    const other = await session();
    const cancel = (s: string) =>
      run(
        rawPost(
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } },
          { "mcp-session-id": s },
        ),
      );
    expect((await cancel(other)).status).toBe(202);
    expect(await eventually(abandoned("cancelnote"), 500)).toBe(false);

    expect((await cancel(sid)).status).toBe(202);
    expect(await eventually(abandoned("cancelnote"))).toBe(true);
    // Cancelled requests get no answer; the stream ends instead of hanging.
    expect(await stream).not.toContain('"result"');
  });

  it("a client hanging up (its request aborted) stops the call", async () => {
    const hangUp = new AbortController();
    const call = await run(
      rawPost(hangingSearch(1, "hangupsignal"), {}, { signal: hangUp.signal }),
    );
    expect(call.status).toBe(200);
    expect(await eventually(asked("hangupsignal"))).toBe(true);
    hangUp.abort();
    expect(await eventually(abandoned("hangupsignal"))).toBe(true);
  });

  it("a client that stops reading the call's stream stops the call", async () => {
    const call = await run(rawPost(hangingSearch(1, "hangupbody")));
    expect(await eventually(asked("hangupbody"))).toBe(true);
    await call.body!.cancel();
    expect(await eventually(abandoned("hangupbody"))).toBe(true);
  });

  it("an SDK client's AbortSignal cancels the call end to end", async () => {
    const mcp = await connect(TOKEN, run);
    const stop = new AbortController();
    const call = mcp.client.callTool(
      { name: "pubmed_search", arguments: { query: "sdkcancel hangs" } },
      undefined,
      { signal: stop.signal },
    );
    expect(await eventually(asked("sdkcancel"))).toBe(true);
    stop.abort("changed my mind");
    await expect(call).rejects.toThrow();
    expect(await eventually(abandoned("sdkcancel"))).toBe(true);
  });
});
