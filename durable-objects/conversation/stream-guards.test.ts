import { beforeAll, expect, it } from "vitest";
import { createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { LOOPING_SENTENCE } from "../../tests/support/guard-fixtures";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

it("a stream from the model that repeats itself is cut: the answer keeps one copy and the user is told", async () => {
  const conv = await createConversation(user);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "loop forever please" });
  await ws.until(turnEnded, 50_000);
  ws.close();
  const events = ws.events();
  const answer = fold(events).messages[1]!;
  expect(answer.status).toBe("complete");
  expect(answer.content).toEqual([
    { type: "text", text: `Here is my summary. ${LOOPING_SENTENCE}` },
  ]);
  expect(events).toContainEqual(
    expect.objectContaining({
      type: "notice",
      level: "warning",
      message: expect.stringContaining("kept repeating itself"),
    }),
  );
  // The call the guard cut is counted, once, with the input its provider reported.
  const usage = events.filter((e) => e.type === "usage_updated");
  expect(usage).toHaveLength(1);
  expect(usage[0]).toMatchObject({ call: { calls: 1, inputTokens: 100 } });
}, 60_000);
