// Approvals in a shared conversation: a participant may answer one (their name is on the
// decision), a viewer may not, and a participant's "always allow" never becomes the owner's policy.
import { beforeAll, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
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
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((f) => f.some((x) => x.type === "synced"));
  return ws;
}

it("a participant approves (the decision names them), a viewer cannot, and 'always allow' stays the owner's", async () => {
  const participant = await createUser();
  const viewer = await createUser();
  const conv = await createConversation(owner);
  for (const [user, role] of [
    [participant, "participant"],
    [viewer, "viewer"],
  ] as const) {
    const res = await api(owner, `/api/conversations/${conv.id}/members`, {
      method: "PUT",
      json: { user: user.id, role },
    });
    expect(res.status).toBe(200);
  }
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
  b.close();
  c.close();
}, 60_000);
