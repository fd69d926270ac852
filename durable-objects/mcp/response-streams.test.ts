import { describe, expect, it } from "vitest";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { AnswerWatch, isConnectionLost, lostAnswer, watchedFetch } from "./response-streams";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const call = (id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } });

/** A POST of `body` answered with an event stream of `chunks`, then `end` (close, or an error). */
async function post(
  chunks: string[],
  end: "close" | "break",
  opts: { body?: string; signal?: AbortSignal } = {},
) {
  const lost: Array<[RequestId, string]> = [];
  const fetchFn = (async () => {
    const encoder = new TextEncoder();
    // One chunk a read, as a connection delivers them, then the end.
    const queue = [...chunks];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next !== undefined) controller.enqueue(encoder.encode(next));
        else if (end === "close") controller.close();
        else controller.error(new Error("connection reset"));
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
  const response = await watchedFetch(fetchFn, (id, cause) => lost.push([id, cause]))("http://x", {
    method: "POST",
    body: opts.body ?? call(7),
    ...(opts.signal && { signal: opts.signal }),
  });
  const text: string[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text.push(value);
    }
  } catch {
    // The break reaches the reader as it should.
  }
  return { lost, text: text.join("") };
}

const answer = (id: number) =>
  `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } })}\n\n`;
const progress = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 7, progress: 1 } })}\n\n`;

describe("watched response streams", () => {
  it("a stream that breaks before the answer reports the request lost, and passes the bytes on", async () => {
    const { lost, text } = await post([progress], "break");
    expect(lost).toEqual([[7, "connection reset"]]);
    expect(text).toBe(progress);
  });

  it("a stream that ends without the answer reports it lost too", async () => {
    const { lost } = await post([progress], "close");
    expect(lost.map(([id]) => id)).toEqual([7]);
  });

  it("an answered request is not lost, even when the stream breaks afterwards or the answer came in pieces", async () => {
    const whole = answer(7);
    expect((await post([whole], "break")).lost).toEqual([]);
    expect((await post([whole.slice(0, 20), whole.slice(20)], "close")).lost).toEqual([]);
    // Without the final blank line.
    expect((await post([whole.trimEnd()], "close")).lost).toEqual([]);
  });

  it("a stream with event ids is left to the SDK, which resumes it", async () => {
    expect((await post(["id: s1_1\ndata: \n\n", progress], "break")).lost).toEqual([]);
    expect((await post(["id: s1_1\ndata: \n\n"], "close")).lost).toEqual([]);
  });

  it("a stream ended by closing the transport is not reported", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await post([progress], "break", { signal: controller.signal })).lost).toEqual([]);
  });

  it("only the unanswered requests of a batch are lost; notifications are not watched", async () => {
    const batch = `[${call(1)},${call(2)}]`;
    expect((await post([answer(1)], "break", { body: batch })).lost.map(([id]) => id)).toEqual([2]);
    const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await post([], "break", { body: note })).lost).toEqual([]);
  });

  it("the error it makes is recognised, and a server's own -32000 is not", () => {
    const { error } = lostAnswer(3, "reset");
    expect(isConnectionLost(new McpError(error.code, error.message, error.data))).toBe(true);
    expect(isConnectionLost(new McpError(error.code, "server says no"))).toBe(false);
  });
});

describe("answers left to the SDK to resume", () => {
  const stream = (text: string) =>
    new Response(text, { headers: { "content-type": "text/event-stream" } });

  /** One transport's watch, over a server that answers each request from `responses`. */
  function transport(responses: Array<() => Response>) {
    const lost: Array<[RequestId, string]> = [];
    const watch = new AnswerWatch((id, cause) => lost.push([id, cause]));
    const fetchFn = watch.fetch((async () => responses.shift()!()) as typeof fetch);
    const read = async (res: Response) => {
      await res.body?.pipeTo(new WritableStream()).catch(() => undefined);
    };
    return { lost, watch, fetchFn, read };
  }

  it("are lost when the SDK gives up reconnecting, or the server refuses resumption (405)", async () => {
    const closed = () => stream("id: a1\ndata: \n\n");
    const gaveUp = transport([closed]);
    await gaveUp.read(await gaveUp.fetchFn("http://x", { method: "POST", body: call(7) }));
    expect(gaveUp.lost).toEqual([]);
    gaveUp.watch.transportError(new Error("SSE stream disconnected: reset"));
    expect(gaveUp.lost).toEqual([]);
    gaveUp.watch.transportError(new Error("Maximum reconnection attempts (2) exceeded."));
    expect(gaveUp.lost).toEqual([
      [7, "the server could not be reached again to resume its answer"],
    ]);

    const refused = transport([
      closed,
      () => stream("id: b1\ndata: \n\n"),
      () => new Response(null, { status: 405 }),
    ]);
    await refused.read(await refused.fetchFn("http://x", { method: "POST", body: call(1) }));
    await refused.read(await refused.fetchFn("http://x", { method: "POST", body: call(2) }));
    await refused.fetchFn("http://x", { method: "GET", headers: { "last-event-id": "a1" } });
    // Only the request of the stream whose resumption was refused.
    expect(refused.lost).toEqual([[1, "the server does not let a broken answer be resumed"]]);
  });

  it("are not lost once they arrive on the resumed stream", async () => {
    const w = transport([() => stream("id: a1\ndata: \n\n"), () => stream(`id: a2\n${answer(7)}`)]);
    await w.read(await w.fetchFn("http://x", { method: "POST", body: call(7) }));
    const resumed = await w.fetchFn("http://x", {
      method: "GET",
      headers: new Headers({ "last-event-id": "a1" }),
    });
    await w.read(resumed);
    w.watch.transportError(new Error("Maximum reconnection attempts (2) exceeded."));
    expect(w.lost).toEqual([]);
  });
});
