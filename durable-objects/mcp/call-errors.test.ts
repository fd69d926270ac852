import { describe, expect, it, vi } from "vitest";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/sdk/types.js";
import { callClock } from "./call-clock";
import { describeCallError, failureCause, isServerFault } from "./call-errors";
import { lostAnswer } from "./response-streams";

const parseError = (result: unknown) => {
  const parsed = CallToolResultSchema.safeParse(result);
  if (parsed.success) throw new Error("expected a malformed result");
  return parsed.error;
};

describe("describeCallError", () => {
  it("a malformed result is a sentence naming the field and what it should be", () => {
    expect(describeCallError(parseError({ content: "oops" }))).toEqual({
      failure: "malformed_result",
      message: "the server sent a malformed result: `content` must be an array (it was a string).",
    });
    const nested = describeCallError(parseError({ content: [{ type: "text" }] }));
    expect(nested.failure).toBe("malformed_result");
    expect(nested.message).toMatch(/^the server sent a malformed result: `content\[0\]/);
    expect(nested.message).not.toMatch(/[{}]/);
  });

  it("a lost connection says so, and that the call was not repeated", () => {
    const { error } = lostAnswer(1, "reset");
    const described = describeCallError(new McpError(error.code, error.message, error.data));
    expect(described.failure).toBe("connection_lost");
    expect(described.message).toMatch(/connection to the server was lost.*not repeated/);
  });

  it("a call that needs a page of the server opened first says so, and is not the server's fault", () => {
    const err = new UrlElicitationRequiredError(
      [{ mode: "url", url: "https://example.com/pay", message: "Pay first", elicitationId: "e1" }],
      "This request requires browser-based authorization.",
    );
    expect(describeCallError(err)).toEqual({
      failure: "needs_page",
      message:
        "the server needs the user to open a page of its own first: This request requires browser-based authorization.",
    });
    expect(isServerFault(err)).toBe(false);
  });

  it("an HTTP error names its status, and the server's words when they are plain and short", () => {
    const html = new StreamableHTTPError(502, "Error POSTing to endpoint: <html><body>Bad gateway");
    expect(describeCallError(html, true).message).toBe("the server answered HTTP 502.");
    const plain = new StreamableHTTPError(503, "Error POSTing to endpoint: down for maintenance");
    expect(describeCallError(plain).message).toBe(
      "the server answered HTTP 503: down for maintenance.",
    );
  });

  it("any other error keeps its message", () => {
    expect(describeCallError(new Error("boom"))).toEqual({ failure: "other", message: "boom" });
  });

  it("a JSON-RPC error that blames the request says the server refused it, in the server's words", () => {
    const err = new McpError(ErrorCode.InvalidParams, "Invalid arguments: `query` is required");
    expect(describeCallError(err)).toEqual({
      failure: "refused",
      message: "the server refused the call: Invalid arguments: `query` is required.",
    });
    expect(describeCallError(err, true).message).toMatch(/^the server refused the request: /);
  });
});

describe("isServerFault", () => {
  it("a server that answered is not at fault; a lost, silent or garbled one is", () => {
    expect(isServerFault(new McpError(ErrorCode.InvalidParams, "bad arguments"))).toBe(false);
    expect(isServerFault(new McpError(ErrorCode.MethodNotFound, "no such tool"))).toBe(false);
    expect(isServerFault(new McpError(ErrorCode.InternalError, "crashed"))).toBe(true);
    expect(isServerFault(parseError({ content: "oops" }))).toBe(true);
    const { error } = lostAnswer(1, "reset");
    expect(isServerFault(new McpError(error.code, error.message, error.data))).toBe(true);
    expect(isServerFault(new TypeError("fetch failed"))).toBe(true);
  });

  it("a call cut at its ceiling (the tool kept working) is not; one cut for silence is", () => {
    vi.useFakeTimers();
    try {
      const limits = { idleMs: 1000, maxTotalMs: 3000, ceilingMessage: "too long in all" };
      const silent = callClock(new AbortController().signal, limits);
      vi.advanceTimersByTime(1000);
      expect(isServerFault(silent.signal.reason)).toBe(true);
      const busy = callClock(new AbortController().signal, limits);
      for (let t = 0; t < 3000; t += 500) {
        busy.progressed();
        vi.advanceTimersByTime(500);
      }
      expect(busy.signal.reason).toMatchObject({
        message: expect.stringMatching(/too long in all/),
      });
      expect(isServerFault(busy.signal.reason)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("failureCause", () => {
  it("says a server's failure in a few words, for the notice that it is skipped", () => {
    expect(failureCause(new StreamableHTTPError(502, "Error POSTing to endpoint: <html>"), 1)).toBe(
      "HTTP 502",
    );
    vi.useFakeTimers();
    try {
      const silent = callClock(new AbortController().signal, {
        idleMs: 30_000,
        maxTotalMs: 600_000,
        ceilingMessage: "too long in all",
      });
      vi.advanceTimersByTime(30_000);
      expect(failureCause(silent.signal.reason, 30_000)).toBe("timed out after 30 s");
    } finally {
      vi.useRealTimers();
    }
    const { error } = lostAnswer(1, "reset");
    expect(failureCause(new McpError(error.code, error.message, error.data), 1)).toBe(
      "connection lost",
    );
    expect(failureCause(parseError({ content: "oops" }), 1)).toBe(
      "a malformed result: `content` must be an array (it was a string)",
    );
    expect(failureCause(new TypeError("Network connection lost."), 1)).toBe(
      "Network connection lost",
    );
    expect(failureCause(new Error("x".repeat(200)), 1)).toHaveLength(80);
  });
});
