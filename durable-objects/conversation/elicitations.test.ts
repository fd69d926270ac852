import { abortAllDurableObjects } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  createUserWithEverything,
  errorOf,
  type TestUser,
} from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import { messageText } from "../protocol/messages";
import type { ServerEvent } from "../protocol/wire";

type Requested = Extract<ServerEvent, { type: "elicitation_requested" }>;
type Answered = Extract<ServerEvent, { type: "elicitation_answered" }>;

let user: TestUser;
beforeAll(async () => {
  user = await createUserWithEverything();
});

const requested = (events: ServerEvent[]) =>
  events.find((e): e is Requested => e.type === "elicitation_requested");
const answered = (events: ServerEvent[]) =>
  events.find((e): e is Answered => e.type === "elicitation_answered");

/** Sends `text` and waits until the server's question reaches this socket. */
async function askedTurn(text: string, settings: Record<string, unknown> = {}, who = user) {
  const conv = await createConversation(who, { settings });
  const ws = await TestSocket.open(who, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(() => requested(ws.events()) !== undefined, 30_000);
  return { conv, ws, question: requested(ws.events())! };
}

/** A second tab: catches up from the start and sees the question too. */
async function secondTab(conversationId: string) {
  const ws = await TestSocket.openSynced(user, conversationId);
  return ws;
}

const details = {
  name: "Ada Lovelace",
  check: true,
  email: "ada@example.com",
  integer: 7,
  untitledSingleSelectEnum: "Ross",
  untitledMultipleSelectEnum: ["Piano", "Drums"],
  titledSingleSelectEnum: "hero-3",
};

describe("elicitation", () => {
  it("a server's form reaches every tab; accepted from a second tab, the values go to the server and the turn continues", async () => {
    const { ws, conv, question } = await askedTurn("ask me for my details");
    expect(question).toMatchObject({
      server: "everything",
      tool: "trigger-elicitation-request",
      callId: "el1",
      mode: "form",
      message: "Please provide inputs for the following fields:",
    });
    const waits = question.expiresAt - question.at;
    expect(waits).toBeGreaterThan(10 * 60 * 1000 - 1000);
    expect(waits).toBeLessThanOrEqual(10 * 60 * 1000);
    const schema = question.requestedSchema!;
    expect(schema.required).toEqual(["name"]);
    expect(schema.properties.integer).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(schema.properties.email).toMatchObject({ type: "string", format: "email" });
    // Still waiting: the call is open.
    expect(ws.events().some((e) => e.type === "tool_result")).toBe(false);

    const other = await secondTab(conv.id);
    expect(requested(other.events())?.elicitationId).toBe(question.elicitationId);
    other.send({
      type: "elicitation",
      elicitationId: question.elicitationId,
      action: "accept",
      content: details,
    });
    await ws.until(turnEnded, 30_000);
    await other.until(turnEnded, 30_000);
    ws.close();
    other.close();

    const events = ws.events();
    expect(answered(events)).toMatchObject({
      elicitationId: question.elicitationId,
      callId: "el1",
      action: "accept",
      content: details,
      by: { via: "websocket", userId: user.id },
    });
    const result = events.find((e) => e.type === "tool_result" && e.callId === "el1");
    expect(result).toMatchObject({ isError: false });
    const answer = fold(events).messages[1]!;
    expect(messageText(answer.content)).toBe("Thanks, the server has your details.");
    expect(answer.activity?.elicitations?.[question.elicitationId]?.answered).toMatchObject({
      action: "accept",
      via: "websocket",
    });
    // The second tab folded the same answer.
    expect(fold(other.events()).messages[1]?.activity?.elicitations).toEqual(
      answer.activity?.elicitations,
    );
  }, 60_000);

  it("an answer that does not fit the form is refused with what is wrong, and the question stays open", async () => {
    const { ws, conv, question } = await askedTurn("ask me for my details");
    const url = `/api/conversations/${conv.id}/elicitations/${question.elicitationId}`;
    const bad = await api(user, url, {
      method: "POST",
      json: { action: "accept", content: { name: "Ada", integer: 500, email: "not-an-email" } },
    });
    expect(bad.status).toBe(400);
    const error = await errorOf(bad);
    expect(error.message).toMatch(/does not fit the form/);
    expect(error.message).toMatch(/Integer: .*100/);
    expect(error.message).toMatch(/String with email format: Enter an email address/);
    const missing = await api(user, url, {
      method: "POST",
      json: { action: "accept", content: {} },
    });
    expect((await errorOf(missing)).message).toMatch(/String: required/);
    // Over the socket, the same check answers with a frame error.
    ws.send({
      type: "elicitation",
      elicitationId: question.elicitationId,
      action: "accept",
      content: { name: "Ada", unknown: 1 },
    });
    await ws.until((f) => f.some((x) => x.type === "frame_error"));
    expect(ws.frames.find((f) => f.type === "frame_error")).toMatchObject({
      error: { code: "invalid_content", message: expect.stringMatching(/unknown field/) },
    });
    expect(answered(ws.events())).toBeUndefined();

    // A valid answer over REST still goes through.
    const good = await api(user, url, {
      method: "POST",
      json: { action: "accept", content: details },
    });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({
      elicitation: {
        id: question.elicitationId,
        action: "accept",
        tool: "trigger-elicitation-request",
      },
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    expect(answered(ws.events())).toMatchObject({ by: { via: "rest", userId: user.id } });
    const again = await api(user, url, { method: "POST", json: { action: "decline" } });
    expect(again.status).toBe(409);
    // Told who answered: this user, from elsewhere.
    expect((await errorOf(again)).message).toMatch(
      /already answered \(accept\) by you \(in another tab or device/,
    );
  }, 60_000);

  it("decline goes back to the server, which tells the model", async () => {
    const { ws, question, conv } = await askedTurn("ask me for my details");
    // Values with a decline would be dropped: refused, and the question stays open.
    const mixed = await api(
      user,
      `/api/conversations/${conv.id}/elicitations/${question.elicitationId}`,
      { method: "POST", json: { action: "decline", content: details } },
    );
    expect(mixed.status).toBe(400);
    expect((await errorOf(mixed)).message).toMatch(/content goes with accept only/);
    ws.send({ type: "elicitation", elicitationId: question.elicitationId, action: "decline" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    expect(answered(events)).toMatchObject({ action: "decline", by: { via: "websocket" } });
    expect(messageText(fold(events).messages[1]!.content)).toBe("You declined to answer.");
  }, 60_000);

  it("a question nobody answers times out as cancel, though the server's own timeout is far longer", async () => {
    // This server's calls time out after 1 s without progress: that clock stands still while the
    // user is asked, so the call lives until the question's own timeout (2 s) and then goes on.
    const impatient = await createUser();
    await api(impatient, "/api/mcp-servers", {
      method: "POST",
      json: { name: "everything", url: inject("everythingUrl"), timeoutMs: 1000 },
    });
    const started = Date.now();
    const { ws } = await askedTurn(
      "ask me for my details",
      { elicitationTimeoutSeconds: 2 },
      impatient,
    );
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(answered(events)).toMatchObject({ action: "cancel", by: { via: "timeout" } });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ isError: false });
    expect(messageText(fold(events).messages[1]!.content)).toBe("The question went unanswered.");
  }, 60_000);

  it("a link question shows the URL; Done (accept, no content) continues the call", async () => {
    const { ws, question } = await askedTurn("send me to a page", {
      toolPolicies: { everything: { tools: { "trigger-url-elicitation": "allow" } } },
    });
    expect(question).toMatchObject({
      mode: "url",
      url: "https://example.com/flow",
      tool: "trigger-url-elicitation",
    });
    expect(question.requestedSchema).toBeUndefined();
    ws.send({ type: "elicitation", elicitationId: question.elicitationId, action: "accept" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    expect(answered(ws.events())).toMatchObject({ action: "accept" });
    expect(answered(ws.events())?.content).toBeUndefined();
    expect(messageText(fold(ws.events()).messages[1]!.content)).toBe("The page is done.");
  }, 60_000);

  it("a call refused until a page of the server's is opened (-32042) asks for it, then is made again", async () => {
    const policies = {
      toolPolicies: { everything: { tools: { "trigger-url-elicitation": "allow" } } },
    };
    const { ws, question } = await askedTurn("first open the server's page", policies);
    // The page the refusal named, as a link question.
    expect(question).toMatchObject({
      mode: "url",
      url: "https://modelcontextprotocol.io",
      message: "Open this link to satisfy the prerequisite, then retry the request.",
      tool: "trigger-url-elicitation",
      callId: "ul2",
    });
    ws.send({ type: "elicitation", elicitationId: question.elicitationId, action: "accept" });
    // Made again, the call goes on to its own link question.
    const second = () =>
      ws.events().filter((e): e is Requested => e.type === "elicitation_requested")[1];
    await ws.until(() => second() !== undefined, 30_000);
    expect(second()).toMatchObject({ url: "https://example.com/flow", callId: "ul2" });
    ws.send({ type: "elicitation", elicitationId: second()!.elicitationId, action: "accept" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    expect(ws.events().find((e) => e.type === "tool_result")).toMatchObject({ isError: false });
    expect(messageText(fold(ws.events()).messages[1]!.content)).toBe("The page is done.");
  }, 60_000);

  it("a page declined leaves the call unmade, and says why", async () => {
    const policies = {
      toolPolicies: { everything: { tools: { "trigger-url-elicitation": "allow" } } },
    };
    const { ws, question } = await askedTurn("first open the server's page", policies);
    ws.send({ type: "elicitation", elicitationId: question.elicitationId, action: "decline" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const result = ws.events().find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toMatch(
      /trigger-url-elicitation needs a page of the server opened first .*the user declined, so it was not run/,
    );
    expect(ws.events().filter((e) => e.type === "elicitation_requested")).toHaveLength(1);
    expect(messageText(fold(ws.events()).messages[1]!.content)).toBe(
      "Not run, as you declined the page.",
    );
  }, 60_000);

  it("stopping the answer withdraws the question", async () => {
    const { ws, conv, question } = await askedTurn("ask me for my details");
    ws.send({ type: "cancel" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    expect(answered(ws.events())).toMatchObject({ action: "cancel", by: { via: "cancel" } });
    expect(fold(ws.events()).messages[1]?.status).toBe("cancelled");
    // An answer that comes after is told the question was withdrawn, not that someone answered.
    const late = await api(
      user,
      `/api/conversations/${conv.id}/elicitations/${question.elicitationId}`,
      { method: "POST", json: { action: "decline" } },
    );
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toMatch(
      /^This question was withdrawn: the answer was stopped/,
    );
  }, 60_000);

  it("a restart while the question waits withdraws it (cancel) and the call is reported interrupted", async () => {
    const { ws, conv, question } = await askedTurn("ask me for my details");
    const seen = ws.events();
    ws.close();
    await abortAllDurableObjects();

    const after = await TestSocket.open(user, conv.id);
    after.send({ type: "resume", lastSeq: seen.at(-1)!.seq });
    await after.until(turnEnded, 30_000);
    after.close();
    const events = after.events();
    expect(answered(events)).toMatchObject({
      elicitationId: question.elicitationId,
      action: "cancel",
      by: { via: "restart" },
    });
    expect(events.find((e) => e.type === "tool_result" && e.callId === "el1")).toMatchObject({
      isError: true,
      summary: "interrupted",
    });
    const late = await api(
      user,
      `/api/conversations/${conv.id}/elicitations/${question.elicitationId}`,
      { method: "POST", json: { action: "accept", content: details } },
    );
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toMatch(
      /withdrawn: the tool call that asked was cut off/,
    );
  }, 60_000);
});
