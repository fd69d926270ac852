// What a user sees of MCP servers that page their tools, declare output schemas, answer in many
// pieces, ask for capabilities we never declared, or are cancelled mid-call, over streamable HTTP
// against tests/support/quirky-server.ts.
import { describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  storedArtifact,
  type TestUser,
} from "../../tests/support/helpers";
import {
  piece,
  PIECE_CHARS,
  PIECES,
  type QuirkyServerState,
} from "../../tests/support/quirky-server";
import { fold, TestSocket, turnEnded, turnInNewConversation } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";

/** A user with the quirky server (its own channel) as `quirky`. */
async function userWithQuirky(path = "mcp", timeoutMs = 10_000) {
  const channel = crypto.randomUUID().slice(0, 8);
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "quirky", url: `${inject("quirkyUrl")}/${channel}/${path}`, timeoutMs },
  });
  expect(res.status).toBe(201);
  const state = async () =>
    (await (await fetch(`${inject("quirkyUrl")}/${channel}/state`)).json()) as QuirkyServerState;
  return { user, state };
}

const settings = { settings: { blockedServers: ["mcp-remote"] } };
const turn = (user: TestUser, text: string) => turnInNewConversation(user, text, settings);

const resultOf = (events: ServerEvent[], callId: string) =>
  events.find(
    (e): e is Extract<ServerEvent, { type: "tool_result" }> =>
      e.type === "tool_result" && e.callId === callId,
  );

const noticesOf = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

/** What the model was sent, from aimock's request journal, for requests that name `marker`. */
async function sentToModel(marker: string): Promise<string[]> {
  const journal = (await (
    await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=1000`)
  ).json()) as unknown;
  const entries = Array.isArray(journal)
    ? journal
    : ((journal as { entries?: unknown[] }).entries ?? []);
  return entries.map((e) => JSON.stringify(e)).filter((e) => e.includes(marker));
}

describe("tool lists in pages", () => {
  it("are read to the last page: a tool listed on the seventh and last page is offered and runs", async () => {
    const { user, state } = await userWithQuirky();
    const events = await turn(user, "quirky pieces please");
    expect(resultOf(events, "qp1")?.isError).toBe(false);
    expect((await state()).listPages).toBe(7);
  });

  it("that never end are reported as the server's fault, and the turn still answers", async () => {
    const { user, state } = await userWithQuirky("mcp-endless");
    const events = await turn(user, "quirky weather please");
    expect(noticesOf(events).join(" ")).toMatch(
      /The MCP server 'quirky' is unavailable \(its tool list never ends: page 3 would be a page it already sent \(cursor "again"\)/,
    );
    expect(fold(events).messages[1]?.status).toBe("complete");
    expect((await state()).listPages).toBe(2);
  });
});

describe("tool lists that repeat a tool", () => {
  it("offer the model each tool once (a provider refuses a request that names a tool twice)", async () => {
    const { user } = await userWithQuirky("mcp-overlap");
    const marker = `overlap${crypto.randomUUID().slice(0, 8)}`;
    const events = await turn(user, `quirky overlap ${marker} please`);
    expect(resultOf(events, "qv1")?.isError).toBe(false);
    // The first model request: every tool the server listed, bad_weather (on two pages) once.
    const [first] = await sentToModel(marker);
    expect(first?.match(/"name":"quirky__bad_weather"/g)).toHaveLength(1);
    expect(first?.match(/"name":"quirky__many_pieces"/g)).toHaveLength(1);
  });
});

describe("tool names outside MCP's rules", () => {
  it("a tool no name can stand for is left out and the user told once; odd but visible names still work", async () => {
    const { user } = await userWithQuirky("mcp-odd-names");
    const conv = await createConversation(user, settings);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    const marker = `odd${crypto.randomUUID().slice(0, 8)}`;
    const questions = [`quirky overlap ${marker} please`, "quirky weather please"];
    for (const [i, text] of questions.entries()) {
      ws.send({ type: "send", clientMessageId: `odd-${i}`, text });
      await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === i + 1, 20_000);
    }
    ws.close();
    const events = ws.events();
    const told = noticesOf(events).filter((n) => /cannot be used/.test(n));
    expect(told).toEqual([
      `The MCP server 'quirky' offers 4 tools that cannot be used, left out: "" (it has no name), "${"w".repeat(40)}…" (its name is 200 characters long; MCP allows 128), "lookU+200Bup" (its name holds characters that cannot be seen), "U+202Eexe.daolnwod" (its name holds characters that cannot be seen). Tool names must be 1–128 letters, digits, _, - or .; the server needs to rename them.`,
    ]);
    // Both turns answered with the server's tools; the model was offered the odd names it can use.
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => r.type === "tool_result" && r.isError)).toEqual([false, false]);
    const [first] = await sentToModel(marker);
    for (const name of ["quirky__get_weather", "quirky__wetter_heute", "quirky__weather"])
      expect(first).toContain(`"name":"${name}"`);
    expect(first).not.toMatch(/"name":"quirky__(www|look|exe)/);
  });
});

describe("tools with an output schema", () => {
  it("a result that fits its schema is used, its data kept as an artifact", async () => {
    const { user } = await userWithQuirky();
    const events = await turn(user, "quirky weather please");
    expect(resultOf(events, "qw1")).toMatchObject({
      isError: false,
      summary: '{"temperature":21.5,"city":"Oslo"} (1 artifact)',
    });
  });

  it("a result that does not fit is refused with what is wrong, whichever page listed the tool", async () => {
    const { user } = await userWithQuirky();
    const events = await turn(user, "quirky bad weather please");
    expect(resultOf(events, "qb1")).toMatchObject({
      isError: true,
      summary:
        "quirky: the server sent a malformed result: its structured content does not match the tool's output schema (`temperature` must be a number (it was a string)).",
    });
    expect(events.some((e) => e.type === "artifact_created")).toBe(false);
    expect(fold(events).messages[1]?.status).toBe("complete");
  });

  it("one tool breaking its schema again and again does not switch off the server's other tools", async () => {
    const { user } = await userWithQuirky();
    // Three failed calls in a turn would reach the failure limit (3), whose open circuit the
    // conversation's next turn would meet.
    const conv = await createConversation(user, settings);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    const questions = ["quirky bad weather thrice please", "quirky weather please"];
    for (const [i, text] of questions.entries()) {
      ws.send({ type: "send", clientMessageId: `schema-${i}`, text });
      await ws.until((f) => f.filter((x) => x.type === "turn_ended").length === i + 1, 20_000);
    }
    ws.close();
    const events = ws.events();
    // A call id the conversation used before is given a new one (unused-call-id.ts).
    const callsTo = (tool: string) =>
      events.flatMap((e) => (e.type === "tool_call" && e.tool === tool ? [e.callId] : []));
    const bad = callsTo("bad_weather").map((id) => resultOf(events, id));
    expect(bad.map((r) => r?.isError)).toEqual([true, true, true]);
    expect(noticesOf(events).join(" ")).not.toMatch(/times in a row|skipped for/);
    expect(resultOf(events, callsTo("weather")[0]!)).toMatchObject({
      isError: false,
      summary: '{"temperature":21.5,"city":"Oslo"} (1 artifact)',
    });
  });
});

it("a result longer than the model is shown loses nothing: the user gets all of it as an artifact, and the model is told", async () => {
  const { user } = await userWithQuirky();
  const events = await turn(user, "quirky pieces please");
  const created = events.flatMap((e) => (e.type === "artifact_created" ? [e.artifact] : []));
  expect(created).toHaveLength(1);
  expect(created[0]?.title).toBe("Output of many_pieces");
  const res = await storedArtifact(user, created[0]!.id);
  const artifact = (await res.json()) as { content: string };
  expect(artifact.content).toBe(Array.from({ length: PIECES }, (_, i) => piece(i)).join("\n\n"));
  const shown = PIECES * PIECE_CHARS - 60_000;
  const sent = await sentToModel(piece(PIECES - 3).slice(0, 12));
  expect(sent.at(-1)).toContain(
    `[${shown} characters of this result are not shown here: results are cut at 60000 characters. The user has the whole output as an artifact.]`,
  );
});

it("embedded documents are titled by the title or name the server gave them, else by their address", async () => {
  const { user } = await userWithQuirky();
  const events = await turn(user, "quirky documents please");
  expect(resultOf(events, "qd1")?.isError).toBe(false);
  const created = events.flatMap((e) => (e.type === "artifact_created" ? [e.artifact] : []));
  // The last has only "7" to its name: the segments before it say what it is.
  expect(created.map((a) => a.title)).toEqual(["Meeting notes", "notes-2.md", "reports/2024/7"]);
});

it("a server's sampling and roots requests are refused as not offered, and its call still ends", async () => {
  const { user, state } = await userWithQuirky();
  const events = await turn(user, "quirky ask client please");
  expect(resultOf(events, "qa1")?.isError).toBe(false);
  expect((await state()).clientAnswers).toEqual([
    "sampling/createMessage: MCP error -32601: Method not found",
    "roots/list: MCP error -32601: Method not found",
  ]);
});

it("stopping the answer during a long call tells the server, which stops; the call ends saying so", async () => {
  const { user, state } = await userWithQuirky();
  const conv = await createConversation(user, settings);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "stop-1", text: "quirky slow work please" });
  // The user sees the call's progress before stopping it.
  await ws.until((f) => f.some((x) => x.type === "tool_progress"), 15_000);
  expect(ws.events().find((e) => e.type === "tool_progress")).toMatchObject({
    callId: "qs1",
    progress: 1,
    total: 40,
    message: "step 1",
  });
  ws.send({ type: "cancel" });
  await ws.until(turnEnded, 5_000);
  ws.close();
  const answer = fold(ws.events()).messages[1];
  expect(answer?.status).toBe("cancelled");
  expect(answer?.content[0]).toMatchObject({
    type: "tool_call",
    status: "failed",
    summary:
      "quirky: stopped with the answer; the server was asked to cancel slow_work, which may have done part of its work.",
  });
  // The server heard of it (notifications/cancelled) and stopped, well before its 20 s.
  const deadline = Date.now() + 3_000;
  while (!(await state()).cancelled.length && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  expect(await state()).toMatchObject({ cancelled: ["slow_work"], finished: [] });
});

it("a server whose handshake cannot be read is named unavailable in a sentence about the listing", async () => {
  const { user } = await userWithQuirky("mcp-bad-init");
  const events = await turn(user, "quirky weather please");
  expect(noticesOf(events)).toContain(
    "The MCP server 'quirky' is unavailable (the server's answer could not be read: it was sent as JSON but is not (Unexpected token 'e', \"event: mes\"... is not valid JSON)).",
  );
  expect(fold(events).messages[1]?.status).toBe("complete");
});

describe("an answer the transport cannot read fails its call at once, saying what came instead", () => {
  // Long enough that waiting for the timeout would fail the test.
  const timeoutMs = 15_000;
  const cases = [
    {
      question: "quirky json in sse please",
      callId: "qj1",
      said: 'it was sent as an event stream but holds no events: `{"jsonrpc":"2.0","id":',
    },
    {
      question: "quirky sse in json please",
      callId: "qe1",
      said: "it was sent as JSON but is not (Unexpected token 'e', \"event: mes\"... is not valid JSON)",
    },
    {
      question: "quirky accepted only please",
      callId: "qo1",
      said: "it accepted the request (202) without answering it",
    },
    {
      question: "quirky not json rpc please",
      callId: "qn1",
      said: "an event that is not JSON: `<html>Internal error</html>`",
    },
  ];
  for (const { question, callId, said } of cases)
    it(question.replace(/^quirky (.*) please$/, "$1"), async () => {
      const { user } = await userWithQuirky("mcp", timeoutMs);
      const events = await turn(user, question);
      const result = resultOf(events, callId);
      const asked = events.find((e) => e.type === "tool_call" && e.callId === callId);
      expect(result!.at - asked!.at).toBeLessThan(5_000);
      expect(result?.isError).toBe(true);
      expect(result?.summary).toContain(`quirky: the server's answer could not be read: ${said}`);
      expect(result?.summary).toMatch(/The call was not repeated/);
      expect(fold(events).messages[1]?.status).toBe("complete");
    });
});

it("a server's log lines during a call all reach the timeline, though a call beside it ends first", async () => {
  const { user } = await userWithQuirky();
  const events = await turn(user, "quirky chatty and quick please");
  expect(resultOf(events, "qq1")?.summary).toBe("quick finished");
  expect(resultOf(events, "qc1")?.summary).toBe("chatty finished");
  const lines = events.flatMap((e) => (e.type === "tool_log" ? [e.data] : []));
  expect(lines).toEqual(Array.from({ length: 10 }, (_, i) => `chatty line ${i + 1}`));
});

it("a server that logs without end, or megabytes in a line, shows a bounded log that says so", async () => {
  const { user } = await userWithQuirky();
  const events = await turn(user, "quirky loud please");
  expect(resultOf(events, "ql1")?.summary).toBe("loud finished");
  const logs = events.flatMap((e) => (e.type === "tool_log" ? [e] : []));
  expect(logs).toHaveLength(101);
  expect(logs[0]?.data).toBe("loud line 1");
  expect(logs[1]?.data).toBe(`${"x".repeat(2_000)}… (cut: the line has 3000000 characters)`);
  expect(logs[99]?.data).toBe("loud line 100");
  expect(logs[100]).toMatchObject({
    level: "warning",
    data: "The server's further log lines during this call are left out: a call shows at most 100.",
  });
});

it("a server that reports progress thousands of times a second shows a few reports a second, each short", async () => {
  const { user } = await userWithQuirky();
  const events = await turn(user, "quirky rapid please");
  const call = events.find((e) => e.type === "tool_call" && e.callId === "qr1")!;
  const result = resultOf(events, "qr1")!;
  expect(result.summary).toBe("rapid finished");
  const reports = events.flatMap((e) => (e.type === "tool_progress" ? [e] : []));
  // At most one every 250 ms, and the first at once.
  expect(reports.length).toBeGreaterThanOrEqual(1);
  expect(reports.length).toBeLessThanOrEqual(Math.ceil((result.at - call.at) / 250) + 1);
  expect(reports[0]?.message).toBe(`${"m".repeat(300)}…`);
});
