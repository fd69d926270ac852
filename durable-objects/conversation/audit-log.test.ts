import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  expect(res.status).toBe(201);
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
    const entries = (await res.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
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
});
