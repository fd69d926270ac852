import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import { messageText } from "../protocol/messages";
import type { ServerEvent } from "../protocol/wire";
import type { Conversation } from "./conversation";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "notes", url: inject("approvalUrl") },
  });
  expect(res.status).toBe(201);
});

/** How often the notes server really ran each tool. */
async function runs(): Promise<Record<string, number>> {
  const url = new URL("/runs", inject("approvalUrl"));
  return (await (await fetch(url)).json()) as Record<string, number>;
}

const requested = (events: ServerEvent[]) =>
  events.find(
    (e): e is Extract<ServerEvent, { type: "approval_requested" }> =>
      e.type === "approval_requested",
  );

/** Starts "tidy my notes" and waits until it is parked at the delete (the list has run). */
async function parkedTurn(settings: Record<string, unknown> = {}) {
  const conv = await createConversation(user, { settings });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "tidy my notes" });
  await ws.until(
    () =>
      requested(ws.events()) !== undefined &&
      ws.events().some((e) => e.type === "tool_result" && e.callId === "n1"),
    30_000,
  );
  return { conv, ws, approval: requested(ws.events())! };
}

async function resumeUntilEnd(conversationId: string, lastSeq: number) {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return ws.events();
}

describe("tool approvals", () => {
  it("a destructive call parks the turn; after a restart an approval by REST resumes it at that call, re-running nothing", async () => {
    const before = await runs();
    const { conv, ws, approval } = await parkedTurn();
    expect(approval).toMatchObject({
      server: "notes",
      tool: "delete_note",
      arguments: { name: "old" },
      step: 1,
    });
    // 24 h from the request (the event is stamped a moment after the request is stored).
    expect(approval.expiresAt - approval.at).toBeGreaterThan(24 * 3600 * 1000 - 1000);
    expect(approval.expiresAt - approval.at).toBeLessThanOrEqual(24 * 3600 * 1000);
    // The read-only call of the same step ran meanwhile; the destructive one did not.
    expect((await runs()).list_notes).toBe((before.list_notes ?? 0) + 1);
    expect((await runs())["delete_note:old"] ?? 0).toBe(before["delete_note:old"] ?? 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      ws
        .events()
        .some((e) => e.type === "turn_ended" || (e.type === "step_started" && e.step === 2)),
    ).toBe(false);
    const seen = ws.events();
    ws.close();
    await abortAllDurableObjects();

    const res = await api(user, `/api/conversations/${conv.id}/approvals/${approval.approvalId}`, {
      method: "POST",
      json: { decision: "approve", note: "fine" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      approval: { decision: "approve", tool: "delete_note" },
    });

    const after = await resumeUntilEnd(conv.id, seen.at(-1)!.seq);
    const all = [...seen, ...after];
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(after.find((e) => e.type === "approval_decided")).toMatchObject({
      approvalId: approval.approvalId,
      decision: "approve",
      note: "fine",
      by: { via: "rest", userId: user.id },
    });
    const answer = fold(all).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(messageText(answer.content)).toBe("The old note is gone.");
    expect(answer.activity?.approvals[approval.approvalId]?.decided).toMatchObject({
      decision: "approve",
      via: "rest",
    });
    // Step 1's model call and its list_notes call were not made again; the delete ran once.
    expect(all.filter((e) => e.type === "step_started" && e.step === 1)).toHaveLength(1);
    const now = await runs();
    expect(now.list_notes).toBe((before.list_notes ?? 0) + 1);
    expect(now["delete_note:old"]).toBe((before["delete_note:old"] ?? 0) + 1);

    // A second answer to the same approval is refused with what was decided.
    const again = await api(
      user,
      `/api/conversations/${conv.id}/approvals/${approval.approvalId}`,
      {
        method: "POST",
        json: { decision: "deny" },
      },
    );
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toMatch(/already answered: approved/);
  }, 60_000);

  it("a parked turn's message is in D1 while it waits: the conversation's messages list it", async () => {
    const { conv, ws } = await parkedTurn();
    const deadline = Date.now() + 5_000;
    let roles: string[] = [];
    while (Date.now() < deadline) {
      const res = await api(user, `/api/conversations/${conv.id}/messages`);
      roles = ((await res.json()) as { items: Array<{ role: string }> }).items.map((m) => m.role);
      if (roles.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(roles).toEqual(["user"]);
    ws.close();
  });

  it("deny over the WebSocket: the call does not run and the model is told the user declined, with the note", async () => {
    const before = await runs();
    const { conv, ws, approval } = await parkedTurn();
    expect(await expirySchedules(conv.id)).toEqual([approval.approvalId]);
    ws.send({
      type: "approval",
      approvalId: approval.approvalId,
      decision: "deny",
      note: "keep it",
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    expect(events.find((e) => e.type === "tool_result" && e.callId === "n2")).toMatchObject({
      isError: true,
      summary: "the user declined: keep it",
    });
    expect(messageText(fold(events).messages[1]!.content)).toBe(
      "Understood, I left the note alone.",
    );
    expect((await runs())["delete_note:old"] ?? 0).toBe(before["delete_note:old"] ?? 0);
    // The answered approval's expiry was cancelled: nothing will wake the object for it.
    expect(await expirySchedules(conv.id)).toEqual([]);
  }, 60_000);

  it("Cancel on a parked turn withdraws its approval, ends the turn and drops the expiry", async () => {
    const { conv, ws, approval } = await parkedTurn();
    ws.send({ type: "cancel" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    expect(events.find((e) => e.type === "approval_decided")).toMatchObject({
      approvalId: approval.approvalId,
      decision: "deny",
      by: { via: "cancel" },
    });
    expect(fold(events).messages[1]!.status).toBe("cancelled");
    expect(await expirySchedules(conv.id)).toEqual([]);
    // Approving it after is told it was withdrawn, not that someone denied it.
    const late = await api(user, `/api/conversations/${conv.id}/approvals/${approval.approvalId}`, {
      method: "POST",
      json: { decision: "approve" },
    });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toMatch(/^This approval was withdrawn/);
  }, 60_000);

  it("an approval nobody answers expires as denied, and the model is told", async () => {
    const { ws } = await parkedTurn({ approvalTimeoutSeconds: 1 });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    expect(events.find((e) => e.type === "approval_decided")).toMatchObject({
      decision: "deny",
      by: { via: "expiry" },
    });
    expect(messageText(fold(events).messages[1]!.content)).toBe(
      "Nobody approved, so I left the note alone.",
    );
  }, 60_000);

  it("'always allow this tool' stores the user's policy: the next conversation runs the tool without asking", async () => {
    const other = await createUser();
    await api(other, "/api/mcp-servers", {
      method: "POST",
      json: { name: "notes", url: inject("approvalUrl") },
    });
    const first = await createConversation(other);
    const ws = await TestSocket.open(other, first.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "remember-1", text: "tidy my notes" });
    await ws.until(() => requested(ws.events()) !== undefined, 30_000);
    ws.send({
      type: "approval",
      approvalId: requested(ws.events())!.approvalId,
      decision: "approve",
      remember: true,
    });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const policies = await api(other, "/api/tool-policies");
    expect(await policies.json()).toEqual({
      policies: { notes: { tools: { delete_note: "allow" } } },
    });

    const second = await createConversation(other);
    const events = await resumeAfterSend(other, second.id);
    expect(events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(messageText(fold(events).messages[1]!.content)).toBe("The old note is gone.");
  }, 60_000);

  it("a conversation's 'never' policy keeps the tool from the model and refuses a call to it", async () => {
    const conv = await createConversation(user, {
      settings: { toolPolicies: { notes: { tools: { delete_note: "never" } } } },
    });
    const events = await resumeAfterSend(user, conv.id);
    expect(events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(events.find((e) => e.type === "tool_result" && e.callId === "n2")).toMatchObject({
      isError: true,
      summary: "not allowed by the user's tool policy",
    });
  }, 60_000);
});

async function resumeAfterSend(who: TestUser, conversationId: string) {
  const ws = await TestSocket.open(who, conversationId);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "tidy my notes" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return ws.events();
}

/** The approvals whose expiry is still scheduled in the conversation's Durable Object. */
async function expirySchedules(conversationId: string): Promise<string[]> {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));
  const schedules = await runInDurableObject(stub, (instance: Conversation) =>
    instance.listSchedules(),
  );
  return schedules
    .filter((s) => s.callback === "expireApproval")
    .map((s) => (s.payload as { approvalId: string }).approvalId);
}
