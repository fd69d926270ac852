// Approvals in a shared conversation: a participant may answer one (their name is on the
// decision), a viewer may not, and a participant's "always allow" never becomes the owner's policy.
// The first answer is final: a later one, from another member or another tab, is told who gave it.
import { env } from "cloudflare:test";
import { beforeAll, expect, inject, it } from "vitest";
import {
  addMembers,
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import { SseReader } from "../../tests/support/sse-client";
import { CLOSE_CONVERSATION_GONE } from "../protocol/close-codes";
import { DELETED_COMMENT } from "./member-access";
import type { ServerEvent } from "../protocol/wire";

let owner: TestUser;
beforeAll(async () => {
  owner = await createUser();
  const res = await api(owner, "/api/mcp-servers", {
    method: "POST",
    json: { name: "notes", url: inject("approvalUrl") },
  });
  expect(res.status).toBe(201);
});

type Requested = Extract<ServerEvent, { type: "approval_requested" }>;
type Decided = Extract<ServerEvent, { type: "approval_decided" }>;

async function join(user: TestUser, id: string): Promise<TestSocket> {
  const ws = await TestSocket.openSynced(user, id);
  return ws;
}

it("a participant approves (the decision names them), a viewer cannot, and 'always allow' stays the owner's", async () => {
  const participant = await createUser(`bo-${crypto.randomUUID().slice(0, 8)}`);
  const viewer = await createUser();
  const conv = await createConversation(owner);
  await addMembers(owner, conv.id, [
    [participant, "participant"],
    [viewer, "viewer"],
  ]);
  const b = await join(participant, conv.id);
  const c = await join(viewer, conv.id);
  b.send({ type: "send", clientMessageId: "tidy-1", text: "tidy my notes" });
  await c.until(() => c.events().some((e) => e.type === "approval_requested"), 30_000);
  const request = c.events().find((e): e is Requested => e.type === "approval_requested")!;

  c.send({ type: "approval", approvalId: request.approvalId, decision: "approve" });
  await c.until((f) => f.some((x) => x.type === "frame_error"));
  expect(c.events().some((e) => e.type === "approval_decided")).toBe(false);

  b.send({ type: "approval", approvalId: request.approvalId, decision: "approve", remember: true });
  await b.until(turnEnded, 30_000);
  const decided = b.events().find((e): e is Decided => e.type === "approval_decided")!;
  expect(decided.by).toEqual({ via: "websocket", userId: participant.id });
  expect(decided.remembered).toBe(false);
  const policies = await api(owner, "/api/tool-policies");
  expect(await policies.json()).toEqual({ policies: {} });

  // The owner answers too late, over REST and from their tab: each is told who answered first.
  const late = await api(owner, `/api/conversations/${conv.id}/approvals/${request.approvalId}`, {
    method: "POST",
    json: { decision: "deny" },
  });
  expect(late.status).toBe(409);
  const name = (await env.DB.prepare("SELECT name FROM users WHERE id = ?")
    .bind(participant.id)
    .first<{ name: string }>())!.name;
  expect((await errorOf(late)).message).toBe(
    `This approval was already answered: approved by ${name}.`,
  );
  const a = await join(owner, conv.id);
  a.send({ type: "approval", approvalId: request.approvalId, decision: "deny" });
  await a.until((f) => f.some((x) => x.type === "frame_error"));
  expect(a.frames.find((x) => x.type === "frame_error")).toMatchObject({
    error: { code: "already_decided", message: expect.stringContaining(`approved by ${name}`) },
  });
  // The participant's own second try (another tab) is told it was theirs.
  const again = await api(
    participant,
    `/api/conversations/${conv.id}/approvals/${request.approvalId}`,
    { method: "POST", json: { decision: "approve" } },
  );
  expect((await errorOf(again)).message).toMatch(/approved by you \(in another tab or device/);
  a.close();
  b.close();
  c.close();
}, 60_000);

it("the owner deletes the conversation while members follow a waiting turn: each is told", async () => {
  const participant = await createUser();
  const conv = await createConversation(owner);
  await addMembers(owner, conv.id, [[participant, "participant"]]);
  const tab = await join(participant, conv.id);
  tab.send({ type: "send", clientMessageId: "tidy-2", text: "tidy my notes" });
  await tab.until(() => tab.events().some((e) => e.type === "approval_requested"), 30_000);
  // The turn waits for an answer: the participant's stream follows it, and would not end.
  const stream = new SseReader(await api(participant, `/api/conversations/${conv.id}/events`));
  await stream.until((f) => f.some((x) => x.event === "approval_requested"));

  const deleted = await api(owner, `/api/conversations/${conv.id}`, { method: "DELETE" });
  expect(deleted.status).toBe(204);
  await stream.done(10_000);
  expect(stream.comments).toContain(DELETED_COMMENT);
  await tab.until(() => tab.closed).catch(() => undefined);
  expect(tab.closeCode).toBe(CLOSE_CONVERSATION_GONE);
}, 60_000);

it("a participant made a viewer while their event stream waits (the object not told) gets no more usage on it", async () => {
  const participant = await createUser();
  const conv = await createConversation(owner);
  await addMembers(owner, conv.id, [[participant, "participant"]]);
  const a = await join(owner, conv.id);
  a.send({ type: "send", clientMessageId: "tidy-3", text: "tidy my notes" });
  await a.until(() => a.events().some((e) => e.type === "approval_requested"), 30_000);
  const request = a.events().find((e): e is Requested => e.type === "approval_requested")!;
  const stream = new SseReader(await api(participant, `/api/conversations/${conv.id}/events`));
  await stream.until((f) => f.some((x) => x.event === "approval_requested"));

  // The owner made them a viewer, and the worker's word to the object was lost.
  await env.DB.prepare(
    "UPDATE conversation_members SET role = 'viewer' WHERE conversation_id = ? AND user_id = ?",
  )
    .bind(conv.id, participant.id)
    .run();
  a.send({ type: "approval", approvalId: request.approvalId, decision: "approve" });
  await a.until(turnEnded, 30_000);
  const followed = await stream.done(30_000);
  const afterApproval = (events: ServerEvent[]) =>
    events.slice(events.findIndex((e) => e.type === "approval_decided"));
  // The answer after the approval cost something: the owner was told what.
  expect(afterApproval(a.events()).some((e) => e.type === "usage_updated")).toBe(true);
  // The stream followed that answer to its end, without what it cost.
  expect(followed.some((e) => e.type === "turn_ended")).toBe(true);
  expect(afterApproval(followed).filter((e) => e.type === "usage_updated")).toEqual([]);
  a.close();
}, 60_000);
