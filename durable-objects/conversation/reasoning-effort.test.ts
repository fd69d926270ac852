// A conversation's reasoning effort, end to end: set over REST or for one message, read by the
// turn, sent to Claude as a thinking request whose thinking the user sees (that Claude's signed
// thinking goes back with its call is held by providers/anthropic/thinking-loop.test.ts, against
// aimock in strict mode). Bad values are refused, saying why.
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUserWithEverything,
  type TestUser,
} from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";

let user: TestUser;
beforeAll(async () => {
  user = await createUserWithEverything();
});

describe("reasoning effort", () => {
  it("makes Claude think, shows the thinking, and carries it over to the step after the tool call", async () => {
    const conv = await createConversation(user, {
      provider: "anthropic",
      model: "claude-haiku-4-5",
    });
    const set = await api(user, `/api/conversations/${conv.id}`, {
      method: "PATCH",
      json: { settings: { reasoningEffort: "medium" } },
    });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { settings: unknown }).settings).toMatchObject({
      reasoningEffort: "medium",
    });

    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q", text: "think, then echo" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const answer = fold(ws.events()).messages[1]!;
    expect(answer.status).toBe("complete");
    const reasoning = answer.content.flatMap((p) => (p.type === "reasoning" ? [p.text] : []));
    expect(reasoning.join("\n")).toContain("An echo will confirm it.");
    expect(answer.content).toContainEqual({ type: "text", text: "Checked by echo." });

    const audit = await api(user, `/api/conversations/${conv.id}/audit`);
    const first = JSON.parse((await audit.text()).split("\n")[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ kind: "model_request", settings: { reasoningEffort: "medium" } });
  }, 60_000);

  it("takes one message's effort over the conversation's, for that message only", async () => {
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({
      type: "send",
      clientMessageId: "a",
      text: "hello there",
      options: { reasoningEffort: "low" },
    });
    await ws.until(turnEnded, 30_000);
    ws.send({ type: "send", clientMessageId: "b", text: "hello again" });
    await ws.until((frames) => frames.filter((f) => f.type === "turn_ended").length === 2, 30_000);
    ws.close();
    const audit = await api(user, `/api/conversations/${conv.id}/audit`);
    const requests = (await audit.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { kind: string; settings?: Record<string, unknown> })
      .filter((e) => e.kind === "model_request");
    expect(requests.map((r) => r.settings?.reasoningEffort)).toEqual(["low", undefined]);
  }, 60_000);

  it("refuses an effort it does not know, naming the ones it does", async () => {
    const conv = await createConversation(user);
    const res = await api(user, `/api/conversations/${conv.id}`, {
      method: "PATCH",
      json: { settings: { reasoningEffort: "extreme" } },
    });
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toMatch(/reasoningEffort/);
    expect(body).toMatch(/low.*medium.*high/);
  });
});
