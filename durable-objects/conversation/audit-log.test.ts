import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  createUserWithEverything,
  type TestUser,
} from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import type { NeutralMessage } from "../providers/types";
import { AuditLog } from "./audit-log";
import type { Conversation } from "./conversation";

let user: TestUser;
beforeAll(async () => {
  user = await createUserWithEverything();
});

describe("the audit log", () => {
  it("lists a three-step turn's model requests, responses, tool calls and results in order, as JSON Lines; gone with the conversation", async () => {
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q", text: "three step question" });
    await ws.until(turnEnded, 30_000);
    ws.close();

    const res = await api(user, `/api/conversations/${conv.id}/audit`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toMatch(
      /attachment; filename="audit-.*\.jsonl"/,
    );
    const entries = await ndjsonLines(res);
    expect(entries.map((e) => e.kind)).toEqual([
      "model_request",
      "model_response",
      "tool_call",
      "tool_result",
      "model_request",
      "model_response",
      "tool_call",
      "tool_call",
      "tool_result",
      "tool_result",
      "model_request",
      "model_response",
    ]);
    expect(entries[0]).toMatchObject({
      step: 1,
      provider: "anthropic",
      messages: 1,
      settings: { toolChoice: "auto" },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Sizes only: the request itself is kept only when the operator asks for it.
    expect(entries[0]).not.toHaveProperty("request");
    expect(JSON.stringify(entries[0])).not.toContain("three step question");
    expect(entries[1]).toMatchObject({ step: 1, toolCalls: ["everything__echo"] });
    expect(entries[2]).toMatchObject({
      step: 1,
      server: "everything",
      tool: "echo",
      arguments: { message: "step one" },
    });
    expect(entries[3]).toMatchObject({ isError: false, durationMs: expect.any(Number) });
    expect(entries[11]).toMatchObject({ step: 3, toolCalls: ["response_formatter"] });

    const other = await createUser();
    expect((await api(other, `/api/conversations/${conv.id}/audit`)).status).toBe(404);
    expect((await api(user, `/api/conversations/${conv.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await api(user, `/api/conversations/${conv.id}/audit`)).status).toBe(404);
  }, 60_000);

  it("lists a three-step turn with an approval in order: each request, call and the decision with who approved", async () => {
    const approver = await createUser();
    const added = await api(approver, "/api/mcp-servers", {
      method: "POST",
      json: { name: "notes", url: inject("approvalUrl") },
    });
    expect(added.status).toBe(201);
    const conv = await createConversation(approver);
    const ws = await TestSocket.open(approver, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q", text: "audited approval question" });
    const requested = () =>
      ws
        .events()
        .find(
          (e): e is Extract<ServerEvent, { type: "approval_requested" }> =>
            e.type === "approval_requested",
        );
    await ws.until(() => requested() !== undefined, 30_000);
    const asked = requested()!;
    ws.send({ type: "approval", approvalId: asked.approvalId, decision: "approve", note: "ok" });
    await ws.until(turnEnded, 30_000);
    ws.close();

    const entries = await auditOf(approver, conv.id);
    expect(entries.map((e) => [e.kind, e.step ?? null, e.tool ?? null])).toEqual([
      ["model_request", 1, null],
      ["model_response", 1, null],
      ["tool_call", 1, "list_notes"],
      ["tool_result", null, null],
      ["model_request", 2, null],
      ["model_response", 2, null],
      ["tool_call", 2, "delete_note"],
      ["approval_requested", null, "delete_note"],
      ["approval_decided", null, null],
      ["tool_result", null, null],
      ["model_request", 3, null],
      ["model_response", 3, null],
    ]);
    expect(entries[6]).toMatchObject({ callId: "aa2", arguments: { name: "audited" } });
    expect(entries[7]).toMatchObject({ callId: "aa2", approvalId: asked.approvalId });
    expect(entries[8]).toMatchObject({
      callId: "aa2",
      approvalId: asked.approvalId,
      decision: "approve",
      note: "ok",
      by: { via: "websocket", userId: approver.id },
    });
    expect(entries[9]).toMatchObject({
      callId: "aa2",
      isError: false,
      summary: "Deleted note audited",
    });
    expect(entries[11]).toMatchObject({ toolCalls: ["response_formatter"] });
    // Entries are in time order too.
    const times = entries.map((e) => Date.parse(e.at as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 60_000);

  it("names the model that served each request when the route falls back (not the conversation's own)", async () => {
    const routed = await createUser();
    const conv = await createConversation(routed, {
      provider: "ollama",
      model: "llama3.2:latest",
      settings: { route: [{ provider: "anthropic", model: "claude-haiku-4-5" }] },
    });
    const ws = await TestSocket.open(routed, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q", text: "a routed question" });
    await ws.until(turnEnded, 30_000);
    ws.close();

    const entries = await auditOf(routed, conv.id);
    // Ollama was asked and was down; Anthropic was asked and answered.
    expect(
      entries.filter((e) => e.kind === "model_request").map((e) => [e.step, e.provider, e.model]),
    ).toEqual([
      [1, "ollama", "llama3.2:latest"],
      [1, "anthropic", "claude-haiku-4-5"],
    ]);
    expect(entries.filter((e) => e.kind === "model_response")).toEqual([
      expect.objectContaining({ step: 1, provider: "anthropic", model: "claude-haiku-4-5" }),
    ]);
  }, 60_000);
});

it("measures a request's size without serializing again the messages an earlier step sent", async () => {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  // Messages that count how often they are serialized.
  const serialized = new Map<string, number>();
  const said = (text: string): NeutralMessage =>
    Object.assign(
      { role: "user" as const, content: [{ type: "text" as const, text }] },
      {
        toJSON() {
          serialized.set(text, (serialized.get(text) ?? 0) + 1);
          return { role: "user", content: [{ type: "text", text }] };
        },
      },
    );
  const history = [said("first"), said("second")];
  const steps = [
    { model: "m", messages: history, maxTokens: 100 },
    { model: "m", messages: [...history, said("third")], maxTokens: 100 },
  ];
  const expected = steps.map((r) => JSON.stringify(r).length);
  serialized.clear();
  const sizes = await runInDurableObject(stub, (instance: Conversation) => {
    const audit = new AuditLog(instance.store.sql, false);
    steps.forEach((request, i) => audit.modelRequest("t", i + 1, "openai", request));
    return jsonLinesOf(audit.jsonLines()).map((e) => e.requestChars as number);
  });
  expect(sizes).toEqual(expected);
  expect(Object.fromEntries(serialized)).toEqual({ first: 1, second: 1, third: 1 });
});

it("measures a request with images and PDFs to the character", async () => {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(crypto.randomUUID()));
  const base64 = "iVBORw0KGgo+/=".repeat(1000);
  const request = {
    model: "m",
    messages: [
      {
        role: "user" as const,
        content: [
          { type: "text" as const, text: 'A "quoted" line\nand another' },
          { type: "image" as const, mediaType: "image/png", data: base64 },
          {
            type: "document" as const,
            mediaType: "application/pdf" as const,
            data: "",
            name: "é.pdf",
          },
        ],
      },
      { role: "assistant" as const, content: [{ type: "text" as const, text: "Seen." }] },
    ],
  };
  const [size] = await runInDurableObject(stub, (instance: Conversation) => {
    const audit = new AuditLog(instance.store.sql, false);
    audit.modelRequest("t", 1, "anthropic", request);
    return jsonLinesOf(audit.jsonLines()).map((e) => e.requestChars as number);
  });
  expect(size).toBe(JSON.stringify(request).length);
});

async function auditOf(owner: TestUser, conversationId: string) {
  const res = await api(owner, `/api/conversations/${conversationId}/audit`);
  expect(res.status).toBe(200);
  return ndjsonLines(res);
}

/** The lines of a JSON Lines text, each parsed. */
function jsonLinesOf(text: string): Record<string, unknown>[] {
  return text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The download's lines, each parsed (decoded by hand: workerd warns on text() of NDJSON). */
async function ndjsonLines(res: Response): Promise<Record<string, unknown>[]> {
  return jsonLinesOf(new TextDecoder().decode(await res.arrayBuffer()));
}
