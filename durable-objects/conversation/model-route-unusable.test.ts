// Routing past a model whose tool calls cannot be used: claude-haiku-4-5 (aimock) calls a tool
// nobody offered on every step; after two such steps the route's next model, claude-opus-4-1,
// serves the turn, and the timeline says why.
import { inject } from "vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { USABLE_ANSWER } from "../../tests/support/route-fixtures";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import { TITLE_INSTRUCTION } from "./titles";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

const ofType = <T extends ServerEvent["type"]>(events: ServerEvent[], type: T) =>
  events.filter((e): e is Extract<ServerEvent, { type: T }> => e.type === type);

/** The models aimock was asked, in order, for requests that carry `marker` (titles left out). */
async function modelsAsked(marker: string): Promise<string[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=1000`);
  const journal = (await res.json()) as unknown;
  const entries = Array.isArray(journal)
    ? (journal as unknown[])
    : ((journal as { entries?: unknown[] }).entries ?? []);
  return entries
    .map((e) => e as { body?: { model?: string } })
    .filter((e) => {
      const text = JSON.stringify(e);
      return text.includes(marker) && !text.includes(TITLE_INSTRUCTION.slice(0, 40));
    })
    .map((e) => e.body?.model ?? "?");
}

describe("a model that twice sends tool calls that cannot be used", () => {
  it("hands the next step to the route's next model, and the timeline says why", async () => {
    const marker = `tool calls go wrong ${crypto.randomUUID()}`;
    const conv = await createConversation(user, {
      provider: "anthropic",
      model: "claude-haiku-4-5",
      settings: { route: [{ provider: "anthropic", model: "claude-opus-4-1" }] },
    });
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: marker });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();

    const served = ofType(events, "step_model").map((e) => [e.step, e.model]);
    expect(served).toEqual([
      [1, "claude-haiku-4-5"],
      [2, "claude-haiku-4-5"],
      [3, "claude-opus-4-1"],
    ]);
    const third = ofType(events, "step_model")[2]!;
    expect(third.failed).toEqual([
      {
        provider: "anthropic",
        model: "claude-haiku-4-5",
        reason:
          "it sent tool calls that could not be used 2 steps in a row (no tool is named lookup_weather).",
      },
    ]);
    expect(ofType(events, "notice").map((n) => n.message)).toContainEqual(
      "Anthropic (claude-haiku-4-5) could not answer: it sent tool calls that could not be used 2 steps in a row (no tool is named lookup_weather). This step falls back to Anthropic (claude-opus-4-1).",
    );
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content).toContainEqual({ type: "text", text: USABLE_ANSWER });
    expect(await modelsAsked(marker)).toEqual([
      "claude-haiku-4-5",
      "claude-haiku-4-5",
      "claude-opus-4-1",
    ]);
  });
});
