// Tool calls that go wrong inside the call, over real streamable HTTP against
// tests/support/faulty-server.ts: the server dies mid-call, or answers with a malformed result.
import { describe, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded, turnInNewConversation } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";

/** A user with one faulty server `name`, on its own channel of the faulty server. */
async function userWithServer(name: string, path: string, timeoutMs: number): Promise<TestUser> {
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name, url: `${inject("faultyUrl")}/${name}/${path}`, timeoutMs },
  });
  expect(res.status).toBe(201);
  return user;
}

const turn = turnInNewConversation;

const resultOf = (events: ServerEvent[], callId: string) =>
  events.find(
    (e): e is Extract<ServerEvent, { type: "tool_result" }> =>
      e.type === "tool_result" && e.callId === callId,
  );

async function runs(name: string): Promise<Record<string, number>> {
  return (await (await fetch(`${inject("faultyUrl")}/${name}/runs`)).json()) as Record<
    string,
    number
  >;
}

describe("a tool call that goes wrong inside the call", () => {
  it("a server that drops the connection mid-call fails the call at once, saying so, and it is not run again", async () => {
    // Long enough that waiting for the timeout would fail the test.
    const user = await userWithServer("faulty-crash", "mcp", 15_000);
    const events = await turn(user, "faulty crash please");
    const result = resultOf(events, "fc1");
    const asked = events.find((e) => e.type === "tool_call" && e.callId === "fc1");
    // The server drops the connection 200 ms into the call.
    expect(result!.at - asked!.at).toBeLessThan(5_000);
    expect(result?.isError).toBe(true);
    expect(result?.summary).toMatch(/^faulty-crash: .*connection to the server was lost/);
    expect(result?.summary).not.toMatch(/timed out/i);
    expect(fold(events).messages[1]?.status).toBe("complete");
    expect((await runs("faulty-crash")).crash_read).toBe(1);
  }, 30_000);

  it("a stream the server closes to be resumed (SEP-1699 polling) still delivers the answer", async () => {
    const user = await userWithServer("faulty-polled", "mcp-resumable", 15_000);
    const events = await turn(user, "faulty polled read please");
    const result = resultOf(events, "fp1");
    expect(result).toMatchObject({ isError: false });
    expect(result?.summary).toMatch(/Polled result arrived/);
    expect((await runs("faulty-polled")).polled_read).toBe(1);
  });

  it("a resumable stream whose server restarts fails the call once resuming it fails, not at the timeout", async () => {
    const user = await userWithServer("faulty-vanish", "mcp-resumable", 15_000);
    const events = await turn(user, "faulty vanish please");
    const result = resultOf(events, "fv1");
    const asked = events.find((e) => e.type === "tool_call" && e.callId === "fv1");
    // The server forgets the session 200 ms into the call; each resumption is refused (404).
    expect(result!.at - asked!.at).toBeLessThan(5_000);
    expect(result?.isError).toBe(true);
    expect(result?.summary).toMatch(/^faulty-vanish: .*connection to the server was lost/);
    expect((await runs("faulty-vanish")).vanish_read).toBe(1);
  }, 30_000);

  it("a stream closed for polling by a server that refuses resumption (GET 405) fails the call at once", async () => {
    const user = await userWithServer("faulty-unresumable", "mcp-resumable-no-get", 15_000);
    const events = await turn(user, "faulty unresumable please");
    const result = resultOf(events, "fu1");
    const asked = events.find((e) => e.type === "tool_call" && e.callId === "fu1");
    expect(result!.at - asked!.at).toBeLessThan(5_000);
    expect(result?.isError).toBe(true);
    expect(result?.summary).toMatch(/^faulty-unresumable: .*connection to the server was lost/);
    expect((await runs("faulty-unresumable")).polled_read).toBe(1);
  }, 30_000);

  it("a malformed result is reported in a sentence, not as a schema dump", async () => {
    const user = await userWithServer("faulty-shape", "mcp", 15_000);
    const events = await turn(user, "faulty bad shape please");
    const result = resultOf(events, "fb1");
    expect(result?.isError).toBe(true);
    expect(result?.summary).toBe(
      "faulty-shape: the server sent a malformed result: `content` must be an array (it was a string).",
    );
  });

  it("a call whose server is removed while it waits for approval is said so, shown once, and not run", async () => {
    const user = await createUser();
    const added = await api(user, "/api/mcp-servers", {
      method: "POST",
      json: { name: "faulty-wipe", url: `${inject("faultyUrl")}/faulty-wipe/mcp` },
    });
    const { id: serverId } = (await added.json()) as { id: string };
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "faulty wipe please" });
    await ws.until((f) => f.some((e) => e.type === "approval_requested"), 30_000);
    const asked = ws.events().find((e) => e.type === "approval_requested");
    const removed = await api(user, `/api/mcp-servers/${serverId}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    const approved = await api(
      user,
      `/api/conversations/${conv.id}/approvals/${asked?.type === "approval_requested" && asked.approvalId}`,
      { method: "POST", json: { decision: "approve" } },
    );
    expect(approved.status).toBe(200);
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    expect(events.filter((e) => e.type === "tool_call" && e.callId === "fw1")).toHaveLength(1);
    expect(resultOf(events, "fw1")).toMatchObject({
      isError: true,
      summary: "faulty-wipe is no longer available",
    });
    expect((await runs("faulty-wipe"))["wipe:drafts"]).toBeUndefined();
  }, 60_000);
});
