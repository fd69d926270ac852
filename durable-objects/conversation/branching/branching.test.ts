// Branching through the real worker: a three-step turn over a real MCP server, a branch from its
// second step on another model, edits and regenerations by REST and over the WebSocket, and the
// versions of a message. aimock's journal and the MCP server's run counts are the witnesses.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { BRANCH_MODEL } from "../../../tests/support/branch-fixtures";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../../tests/support/ws-client";
import type { Conversation } from "../../protocol/rest";
import type { AlternativesList } from "../../protocol/branches";
import type { ServerFrame } from "../../protocol/wire";
import { TITLE_INSTRUCTION } from "../titles";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "library", url: inject("lookupUrl") },
  });
  expect(res.status).toBe(201);
});

async function runs(): Promise<Record<string, number>> {
  const res = await fetch(inject("lookupUrl").replace(/\/mcp$/, "/runs"));
  return (await res.json()) as Record<string, number>;
}

/** Opens the conversation, optionally sends `text`, and returns its events once a turn ended. */
async function follow(id: string, text?: string) {
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((frames) => frames.some((f) => f.type === "synced"));
  if (text) ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return fold(ws.events());
}

async function branch(id: string, body: Record<string, unknown>): Promise<Conversation> {
  const res = await api(user, `/api/conversations/${id}/branch`, { method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Conversation;
}

interface JournalRequest {
  model?: string;
  messages?: unknown[];
}

/** The model requests (titles left out) whose messages mention `marker`, oldest first. */
async function requestsWith(marker: string): Promise<JournalRequest[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: JournalRequest }>;
  return entries.flatMap((e) => {
    const text = JSON.stringify(e.body ?? {});
    return e.body && text.includes(marker) && !text.includes(TITLE_INSTRUCTION) ? [e.body] : [];
  });
}

describe("a branch from a tool step", () => {
  it("carries the earlier calls and results into its first request and runs none of them again", async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const origin = await createConversation(user);
    const before = await runs();
    const first = await follow(origin.id, `branch three steps ${marker}`);
    const answer = first.messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content.filter((p) => p.type === "tool_call").map((p) => p.summary)).toEqual([
      expect.stringContaining("alpha"),
      expect.stringContaining("beta"),
    ]);
    const afterOrigin = await runs();
    expect(afterOrigin.alpha).toBe((before.alpha ?? 0) + 1);
    expect(afterOrigin.beta).toBe((before.beta ?? 0) + 1);

    const made = await branch(origin.id, { messageId: answer.id, step: 2, model: BRANCH_MODEL });
    expect(made.model).toBe(BRANCH_MODEL);
    expect(made.branchedFrom).toEqual({
      conversationId: origin.id,
      messageId: answer.id,
      step: 2,
      seq: 2,
    });
    const shown = await follow(made.id);

    // The branch shows the question, then one answer: the kept steps' calls, then its own text.
    expect(shown.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const continued = shown.messages[1]!;
    expect(continued.status).toBe("complete");
    expect(continued.content.filter((p) => p.type === "tool_call")).toEqual([
      expect.objectContaining({ tool: "lookup", arguments: { topic: "alpha" }, status: "done" }),
      expect.objectContaining({ tool: "lookup", arguments: { topic: "beta" }, status: "done" }),
    ]);
    expect(continued.content).toContainEqual({
      type: "text",
      text: "The branch answers from both lookups.",
    });

    // Its first model request went to the branch's model with both results in its history.
    const branchRequests = (await requestsWith(marker)).filter((r) => r.model === BRANCH_MODEL);
    expect(branchRequests).toHaveLength(1);
    const history = JSON.stringify(branchRequests[0]!.messages);
    expect(history).toContain("Found: alpha facts");
    expect(history).toContain("Found: beta facts");
    // ...one step at a time, as the first model made them: a call, its result, the next call.
    const roles = (branchRequests[0]!.messages as Array<{ role: string }>)
      .map((m) => m.role)
      .filter((r) => r !== "system");
    expect(roles).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    // ...and the MCP server ran nothing more.
    expect(await runs()).toEqual(afterOrigin);
  }, 60_000);

  it("reuses a kept result when the branch's model asks for the same call again", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "branch three steps from step one");
    const before = await runs();
    const made = await branch(origin.id, {
      messageId: first.messages[1]!.id,
      step: 1,
      model: BRANCH_MODEL,
    });
    const shown = await follow(made.id);
    const calls = shown.messages[1]!.content.filter((p) => p.type === "tool_call");
    expect(calls.map((c) => [c.arguments, c.status])).toEqual([
      [{ topic: "alpha" }, "done"],
      [{ topic: "alpha" }, "done"],
    ]);
    expect(calls[1]!.summary).toMatch(/^reused the earlier result: /);
    expect(shown.messages[1]!.content).toContainEqual({
      type: "text",
      text: "The branch reused the alpha lookup.",
    });
    expect(await runs()).toEqual(before);
  }, 60_000);

  it("branches a branch at an answer it copied, by that answer's steps", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "branch three steps, then a branch of a branch");
    const before = await runs();
    const here = await branch(origin.id, { messageId: first.messages[1]!.id });
    // The copied answer keeps the steps of its calls: the client offers a branch at each.
    const ws = await TestSocket.open(user, here.id);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((frames) => frames.some((f) => f.type === "synced"));
    ws.close();
    const copied = fold(ws.events()).messages[1]!;
    expect(Object.values(copied.activity?.callSteps ?? {})).toEqual([1, 2]);

    const deeper = await branch(here.id, { messageId: copied.id, step: 2, model: BRANCH_MODEL });
    expect(deeper.branchedFrom).toMatchObject({ conversationId: here.id, step: 2 });
    const shown = await follow(deeper.id);
    expect(shown.messages[1]!.content).toContainEqual({
      type: "text",
      text: "The branch answers from both lookups.",
    });
    expect(await runs()).toEqual(before);
  }, 60_000);

  it("says which steps exist when the step is past the answer's last", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "branch three steps again");
    const res = await api(user, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: first.messages[1]!.id, step: 3 },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(
      "This answer has 2 tool steps: choose a step from 0 to 2.",
    );
  });
});

describe("edit and regenerate", () => {
  it("regenerates an answer in a branch on another model; the original is kept and both are versions", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "answer me twice");
    const made = await branch(origin.id, {
      messageId: first.messages[1]!.id,
      step: 0,
      model: BRANCH_MODEL,
    });
    const again = await follow(made.id);
    expect(again.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "answer me twice" }]],
      ["assistant", [{ type: "text", text: "A second answer, from the branch model." }]],
    ]);
    // Nothing earlier is lost: the origin still has its own answer.
    const kept = await api(user, `/api/conversations/${origin.id}/messages`);
    const items = ((await kept.json()) as { items: Array<{ content: unknown }> }).items;
    expect(items[1]!.content).toEqual([{ type: "text", text: "A first answer." }]);

    const list = async (id: string) =>
      (await (await api(user, `/api/conversations/${id}/alternatives`)).json()) as AlternativesList;
    const fromBranch = await list(made.id);
    expect(fromBranch.items).toEqual([
      {
        seq: 2,
        conversations: [
          { id: origin.id, title: expect.any(String) },
          { id: made.id, title: expect.any(String) },
        ],
        current: 1,
      },
    ]);
    expect((await list(origin.id)).items[0]!.current).toBe(0);
  });

  it("edits a question over the WebSocket: the branch asks the new text where the old one was", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "answer me twice");
    const ws = await TestSocket.open(user, origin.id);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((frames) => frames.some((f) => f.type === "synced"));
    ws.send({ type: "branch", messageId: first.messages[0]!.id, text: "an edited question" });
    await ws.until((frames) => frames.some((f) => f.type === "branched"));
    const branched = ws.frames.find(
      (f): f is Extract<ServerFrame, { type: "branched" }> => f.type === "branched",
    )!;
    ws.close();
    const edited = await follow(branched.conversationId);
    expect(edited.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "an edited question" }]],
      ["assistant", [{ type: "text", text: "The answer to the edited question." }]],
    ]);
    const row = await api(user, `/api/conversations/${branched.conversationId}`);
    expect(((await row.json()) as Conversation).branchedFrom).toMatchObject({
      conversationId: origin.id,
      seq: 1,
    });
  });

  it("refuses over the WebSocket to edit an answer, saying how to change it", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "answer me twice");
    const ws = await TestSocket.open(user, origin.id);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((frames) => frames.some((f) => f.type === "synced"));
    ws.send({ type: "branch", messageId: first.messages[1]!.id, text: "no" });
    await ws.until((frames) => frames.some((f) => f.type === "frame_error"));
    expect(ws.frames.find((f) => f.type === "frame_error")).toEqual({
      type: "frame_error",
      error: {
        code: "bad_request",
        message:
          "Only your own messages can be edited: to change an answer, regenerate it (`step: 0`).",
      },
    });
    ws.close();
  });

  it("regenerates over the WebSocket and edits over REST", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "answer me twice");
    const ws = await TestSocket.open(user, origin.id);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((frames) => frames.some((f) => f.type === "synced"));
    ws.send({ type: "branch", messageId: first.messages[1]!.id, step: 0, model: BRANCH_MODEL });
    await ws.until((frames) => frames.some((f) => f.type === "branched"));
    const branched = ws.frames.find(
      (f): f is Extract<ServerFrame, { type: "branched" }> => f.type === "branched",
    )!;
    ws.close();
    const again = await follow(branched.conversationId);
    expect(again.messages[1]!.content).toEqual([
      { type: "text", text: "A second answer, from the branch model." },
    ]);

    const edited = await branch(origin.id, {
      messageId: first.messages[0]!.id,
      text: "an edited question",
    });
    const shown = await follow(edited.id);
    expect(shown.messages.map((m) => m.content)).toEqual([
      [{ type: "text", text: "an edited question" }],
      [{ type: "text", text: "The answer to the edited question." }],
    ]);
  }, 60_000);

  it("answers a question again when branched at it without new text", async () => {
    const origin = await createConversation(user);
    const first = await follow(origin.id, "answer me twice");
    const made = await branch(origin.id, {
      messageId: first.messages[0]!.id,
      model: BRANCH_MODEL,
    });
    expect(made.branchedFrom?.seq).toBe(2);
    const shown = await follow(made.id);
    expect(shown.messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(shown.messages[1]!.content).toEqual([
      { type: "text", text: "A second answer, from the branch model." },
    ]);
  }, 60_000);

  it("names each branch after its origin with its own number, a branch of a branch too", async () => {
    const origin = await createConversation(user, { title: "Tides 100%_" });
    const first = await follow(origin.id, "answer me twice");
    const at = { messageId: first.messages[1]!.id };
    const one = await branch(origin.id, at);
    const two = await branch(origin.id, at);
    // "Branch here" holds the answer and waits for a message: its copy is in the branch's list.
    const copied = await api(user, `/api/conversations/${one.id}/messages`);
    const items = ((await copied.json()) as { items: Array<{ id: string }> }).items;
    const three = await branch(one.id, { messageId: items[1]!.id });
    expect([one.title, two.title, three.title]).toEqual([
      "Tides 100%_ (branch 1)",
      "Tides 100%_ (branch 2)",
      "Tides 100%_ (branch 3)",
    ]);
    // A title the request names is kept as it is.
    expect((await branch(origin.id, { ...at, title: "Low tide" })).title).toBe("Low tide");
  });

  it("answers 404 for another user's conversation", async () => {
    const origin = await createConversation(user);
    const other = await createUser();
    const res = await api(other, `/api/conversations/${origin.id}/branch`, {
      method: "POST",
      json: { messageId: "x" },
    });
    expect(res.status).toBe(404);
    const rows = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM conversations WHERE parent_conversation_id = ?",
    )
      .bind(origin.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
