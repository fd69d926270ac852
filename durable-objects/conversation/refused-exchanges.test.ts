// A question the provider refused to answer is left out of what the model sees afterwards (a
// refusal in the history makes the model go on refusing); the user still sees both messages.
// aimock's journal is the witness.
import { expect, inject, it } from "vitest";
import { createConversation, createUser } from "../../tests/support/helpers";
import { BLOCKED_BY_FILTER } from "../../tests/support/openai-compat-fixtures";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";

/** The model requests whose messages mention `marker`. */
async function requestsWith(marker: string): Promise<string[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: { messages?: unknown[] } }>;
  return entries
    .map((e) => JSON.stringify(e.body?.messages ?? []))
    .filter((messages) => messages.includes(marker));
}

it("leaves a refused question out of the next turn's history, and keeps it on screen", async () => {
  const user = await createUser();
  const conv = await createConversation(user, { provider: "openai" });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  const refused = `${BLOCKED_BY_FILTER} ${crypto.randomUUID()}`;
  ws.send({ type: "send", clientMessageId: "r1", text: refused });
  await ws.until(turnEnded);
  const first = ws.events().find((e) => e.type === "turn_ended");
  expect(first?.type === "turn_ended" && first.cutShort).toBe("content_filter");

  const marker = `after the refusal ${crypto.randomUUID()}`;
  ws.send({ type: "send", clientMessageId: "r2", text: marker });
  await ws.until((f) => f.filter((x) => x.type === "turn_ended").length >= 2);
  ws.close();

  const [next] = await requestsWith(marker);
  expect(next).toBeDefined();
  expect(next).not.toContain(refused);
  // The user sees the whole conversation, the refused exchange included.
  expect(fold(ws.events()).messages.map((m) => m.role)).toEqual([
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
});
