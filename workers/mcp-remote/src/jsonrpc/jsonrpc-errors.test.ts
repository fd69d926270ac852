import { describe, expect, it } from "vitest";
import { messagesOf, rawPost, worker } from "../../test/mcp-client";

const send = async (body: unknown) => {
  const res = await worker.fetch(rawPost(body));
  return { status: res.status, messages: await messagesOf(res) };
};

describe("JSON-RPC faults get the codes JSON-RPC gives them", () => {
  it("answers a body that is not JSON with -32700", async () => {
    const { status, messages } = await send("{not json");
    expect(status).toBe(400);
    expect(messages[0]).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("answers JSON that is not a valid JSON-RPC message with -32600, saying what is wrong", async () => {
    const cases: Array<[unknown, unknown, RegExp]> = [
      [{ jsonrpc: "2.0", id: 1 }, 1, /needs a "method"/],
      [
        { jsonrpc: "1.0", id: 2, method: "tools/list" },
        2,
        /"jsonrpc" must be "2\.0" \(got "1\.0"\)/,
      ],
      [{ id: 3, method: "tools/list" }, 3, /"jsonrpc" must be "2\.0" \(it is missing\)/],
      [{ jsonrpc: "2.0", id: 4, method: 42 }, 4, /"method" must be a string/],
      [
        { jsonrpc: "2.0", id: 5, method: "tools/list", params: [1] },
        5,
        /"params" must be an object/,
      ],
      [[], null, /batch is empty/],
      ['"just a string"', null, /must be a JSON object/],
    ];
    for (const [body, id, pattern] of cases) {
      const { status, messages } = await send(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(messages[0], JSON.stringify(body)).toMatchObject({
        id,
        error: { code: -32600, message: expect.stringMatching(pattern) },
      });
    }
  });

  it("answers invalid params with -32602 and a sentence naming the field, not a schema dump", async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        "tools/call",
        { arguments: {} },
        /^Invalid params for tools\/call: "name" is missing \(expected string\)\.$/,
      ],
      [
        "tools/call",
        { name: "pubmed_search", arguments: "x" },
        /"arguments": expected record, received string/,
      ],
      ["logging/setLevel", { level: "loud" }, /"level": expected one of "debug"\|"info"/],
      ["resources/read", {}, /"uri" is missing/],
    ];
    for (const [method, params, pattern] of cases) {
      const { messages } = await send({ jsonrpc: "2.0", id: 9, method, params });
      const error = (messages[0] as { error: { code: number; message: string } }).error;
      expect(error.code, method).toBe(-32602);
      expect(error.message, method).toMatch(pattern);
      expect(error.message, method).not.toContain("[");
    }
  });

  it("answers a cursor on a list with -32602: it never issued one, and page one is not what was asked", async () => {
    for (const method of [
      "tools/list",
      "prompts/list",
      "resources/list",
      "resources/templates/list",
    ]) {
      const { messages } = await send({ jsonrpc: "2.0", id: 3, method, params: { cursor: "abc" } });
      expect(messages[0], method).toMatchObject({
        id: 3,
        error: { code: -32602, message: expect.stringMatching(/"cursor" names no page/) },
      });
    }
    const { messages } = await send({ jsonrpc: "2.0", id: 4, method: "tools/list", params: {} });
    expect((messages[0] as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(
      0,
    );
  });

  it("answers a call to an unknown tool with -32602, as a protocol error rather than a tool result", async () => {
    const { messages } = await send({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { name: "graph_delete", arguments: {} },
    });
    expect(messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 6,
        error: {
          code: -32602,
          message: "Unknown tool: graph_delete. tools/list names the 11 tools this server has.",
        },
      },
    ]);
    // A known tool with bad arguments stays a tool result the model can correct.
    const bad = await send({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "render_chart", arguments: {} },
    });
    expect(bad.messages[0]).toMatchObject({ id: 7, result: { isError: true } });
  });

  it("answers bad tool arguments with a result naming each argument, what it should be and what it was", async () => {
    const call = async (name: string, args: unknown) => {
      const { messages } = await send({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/call",
        params: { name, arguments: args },
      });
      expect(messages[0], name).toMatchObject({ id: 8, result: { isError: true } });
      return (messages[0] as { result: { content: Array<{ text: string }> } }).result.content[0]!
        .text;
    };
    expect(await call("render_chart", { type: "donut" })).toBe(
      'Invalid arguments for render_chart: "type" must be one of "bar", "line", "scatter", "pie" (it was "donut"); "series" is missing (expected an array). Correct them and call render_chart again (tools/list gives its input schema).',
    );
    expect(await call("pubmed_search", { query: 5 })).toMatch(
      /^Invalid arguments for pubmed_search: "query" must be a string \(it was 5\)\./,
    );
    expect(await call("render_chart", {})).toMatch(/"type" is missing \(expected one of "bar"/);
    // A rule's own words are kept, with the value that broke it.
    expect(await call("trial_get", { nctId: "12" })).toMatch(
      /^Invalid arguments for trial_get: "nctId": an NCT id looks like NCT01234567 \(it was "12"\)\./,
    );
    expect(await call("pubmed_search", { query: "brca1", maxResults: 0 })).toMatch(
      /"maxResults" must be at least 1 \(it was 0\)/,
    );
    expect(await call("render_chart", { type: "bar", series: [{ name: 1 }] })).toMatch(
      /"series\[0\]\.name" must be a string \(it was 1\)/,
    );
  });
});

describe("a POST that says the wrong media types is refused for them, saying what to send", () => {
  it("a body that is not JSON, sent as a form, gets 415 naming the Content-Type to send, not a parse error", async () => {
    const res = await worker.fetch(
      rawPost("query=cancer", { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message:
          'Unsupported Media Type: send the JSON-RPC message as JSON, with "Content-Type: application/json" (this request\'s Content-Type: "application/x-www-form-urlencoded").',
      },
    });
  });

  it("a client that does not take event streams gets 406 saying what Accept to send", async () => {
    const res = await worker.fetch(rawPost("{not json", { accept: "application/json" }));
    expect(res.status).toBe(406);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'Not Acceptable: send "Accept: application/json, text/event-stream"; a streamable HTTP client must take both kinds of answer (this request\'s Accept: "application/json").',
    );
  });
});
