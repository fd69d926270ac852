import { abortAllDurableObjects } from "cloudflare:test";
import { inject } from "vitest";
import { expect, it } from "vitest";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";

it("evicted during a tool call: the turn resumes, the cut-off call is not run again, and nothing shown is lost", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  const conv = await createConversation(user);

  const first = await TestSocket.open(user, conv.id);
  first.send({ type: "resume", lastSeq: 0 });
  first.send({ type: "send", clientMessageId: "evict-1", text: "long operation please" });
  await first.until((f) => f.some((x) => x.type === "tool_progress"), 20_000);
  const before: ServerEvent[] = first.events();
  // As a deploy does: the object is torn down with its work in flight.
  await abortAllDurableObjects();

  // A client coming back wakes the object, which picks the turn up again.
  const second = await TestSocket.open(user, conv.id);
  const lastSeen = before[before.length - 1]!.seq;
  second.send({ type: "resume", lastSeq: lastSeen });
  await second.until(turnEnded, 30_000);
  second.close();
  const all = [...before, ...second.events()];

  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1)); // no gap, no duplicate
  const notices = all.flatMap((e) => (e.type === "notice" ? [e.message] : []));
  expect(notices.some((n) => /restarted during this answer/.test(n))).toBe(true);
  const toolOf = new Map(
    all.flatMap((e) => (e.type === "tool_call" ? [[e.callId, e.tool] as const] : [])),
  );
  const longRuns = all.filter(
    (e) => e.type === "tool_result" && toolOf.get(e.callId) === "trigger-long-running-operation",
  );
  expect(longRuns[0]).toMatchObject({ callId: "p1", isError: true, summary: "interrupted" });
  // The step's model call had finished: the resumed turn continues at its calls, not calling the
  // model for that step again.
  expect(all.filter((e) => e.type === "step_started" && e.step === 1)).toHaveLength(1);
  // The model is told the call was interrupted (and the tool is not run behind its back).
  expect(longRuns).toHaveLength(1);
  expect(all.filter((e) => e.type === "turn_started")).toHaveLength(1);
  const progressAfter = second.events().filter((e) => e.type === "tool_progress");
  expect(progressAfter).toHaveLength(0);
  const answer = fold(all).messages[1]!;
  expect(answer.status).toBe("complete");
  expect(answer.content.at(-1)).toEqual({ type: "text", text: "The operation was interrupted." });
  // What the first client saw is still part of the message.
  expect(
    answer.content.some(
      (p) => p.type === "tool_call" && p.tool === "trigger-long-running-operation",
    ),
  ).toBe(true);
}, 60_000);

it("evicted between steps: the turn resumes from its checkpoint and finishes; the first step is not redone", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  const conv = await createConversation(user);
  const first = await TestSocket.open(user, conv.id);
  first.send({ type: "resume", lastSeq: 0 });
  first.send({ type: "send", clientMessageId: "between-1", text: "three step question" });
  // Step 1 is checkpointed before step 2 starts.
  await first.until((f) => f.some((x) => x.type === "step_started" && x.step === 2), 20_000);
  const before = first.events();
  await abortAllDurableObjects();

  const second = await TestSocket.open(user, conv.id);
  second.send({ type: "resume", lastSeq: before[before.length - 1]!.seq });
  await second.until(turnEnded, 30_000);
  second.close();
  const all = [...before, ...second.events()];
  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
  const echoes = all.filter((e) => e.type === "tool_call" && e.tool === "echo");
  expect(echoes).toHaveLength(1);
  const answer = fold(all).messages[1]!;
  expect(answer.status).toBe("complete");
  expect(answer.content.filter((p) => p.type === "text")).toEqual([
    { type: "text", text: "Here is what the tools found." },
  ]);
}, 60_000);
