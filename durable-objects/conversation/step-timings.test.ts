// Step timings end to end: aimock (a 503 first, then a set time to first token) and two real MCP
// servers (server-everything's long-running operation, the notes server).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { TIMED_FIRST_TOKEN_MS, TIMED_TOOL_MS } from "../../tests/support/timing-fixtures";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import { ConversationTimings } from "../protocol/timings";
import type { ServerEvent } from "../protocol/wire";
import { backoffMs } from "../providers/retry";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
  for (const [name, url] of [
    ["everything", inject("everythingUrl")],
    ["notes", inject("approvalUrl")],
  ] as const) {
    const res = await api(user, "/api/mcp-servers", { method: "POST", json: { name, url } });
    expect(res.status).toBe(201);
  }
});

type Timed = Extract<ServerEvent, { type: "step_timings" }>;

describe("step timings", () => {
  it("each step reports its phases in order, with figures no smaller than the latencies set; the API returns them", async () => {
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "q", text: "timed question" });
    await ws.until(turnEnded, 60_000);
    ws.close();
    const events = ws.events();
    const timed = events.filter((e): e is Timed => e.type === "step_timings");
    expect(timed.map((e) => e.timings.step)).toEqual([1, 2]);
    const [first, second] = timed.map((e) => e.timings);

    // Step 1: queued and tool listing before it; a 503, the retry policy's wait, then the model.
    expect(first!.queuedMs).toBeGreaterThanOrEqual(0);
    expect(first!.catalogMs).toBeGreaterThanOrEqual(0);
    expect(first!.model).toHaveLength(1);
    const model = first!.model[0]!;
    expect(model).toMatchObject({ provider: "anthropic", model: expect.any(String) });
    expect(model.retries).toEqual([{ attempt: 1, code: expect.any(String), waitMs: backoffMs(1) }]);
    // The user is told of the wait while it lasts, with what the provider said.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        message: expect.stringMatching(/overloaded.*Trying again in 1 s \(try 2 of 3\)/),
      }),
    );
    // Time to first token counts the wait before the retry and the model's own delay.
    expect(model.firstTokenMs).toBeGreaterThanOrEqual(backoffMs(1) + TIMED_FIRST_TOKEN_MS.step1);
    expect(model.streamMs).toBeGreaterThanOrEqual(0);
    // Both calls, each with its server; the long operation takes at least the time it was given.
    expect(first!.tools.map((t) => [t.callId, t.server, t.tool])).toEqual(
      expect.arrayContaining([
        ["t1", "everything", "trigger-long-running-operation"],
        ["t2", "notes", "list_notes"],
      ]),
    );
    const latency = Object.fromEntries(first!.tools.map((t) => [t.callId, t.latencyMs]));
    expect(latency.t1).toBeGreaterThanOrEqual(TIMED_TOOL_MS);
    expect(first!.servers).toEqual(
      expect.arrayContaining([
        { server: "everything", calls: 1, totalMs: latency.t1, maxMs: latency.t1 },
        { server: "notes", calls: 1, totalMs: latency.t2, maxMs: latency.t2 },
      ]),
    );
    expect(first!.checkpointMs).toBeGreaterThanOrEqual(0);
    expect(first!.pausedMs).toBe(0);
    // The whole step is at least its model call and its slowest tool (they run one after the other).
    expect(first!.totalMs).toBeGreaterThanOrEqual(
      model.firstTokenMs! + model.streamMs + Math.max(latency.t1!, latency.t2!),
    );

    // Step 2: the answer, no retry and no tools; the turn's start-up belongs to step 1 only.
    expect(second!.queuedMs).toBeUndefined();
    expect(second!.model).toHaveLength(1);
    expect(second!.model[0]!.retries).toEqual([]);
    expect(second!.model[0]!.firstTokenMs).toBeGreaterThanOrEqual(TIMED_FIRST_TOKEN_MS.step2);
    expect(second!.tools).toEqual([]);

    // In order: step 1's timings after its tool results and before step 2 starts; step 2's
    // before the turn ends.
    const at = (p: (e: ServerEvent) => boolean) => events.findIndex(p);
    const lastResult = events.findLastIndex((e) => e.type === "tool_result");
    expect(at((e) => e === timed[0])).toBeGreaterThan(lastResult);
    expect(at((e) => e === timed[0])).toBeLessThan(
      at((e) => e.type === "step_started" && e.step === 2),
    );
    expect(at((e) => e === timed[1])).toBeLessThan(at((e) => e.type === "turn_ended"));
    // The client's fold keeps them with the answer (the timeline shows them).
    expect(fold(events).messages[1]!.activity?.stepTimings).toEqual([first, second]);

    const res = await api(user, `/api/conversations/${conv.id}/timings`);
    expect(res.status).toBe(200);
    const body = ConversationTimings.parse(await res.json());
    expect(body.steps.map((s) => s.timings)).toEqual([first, second]);
    expect(body.steps[0]).toMatchObject({
      turnId: timed[0]!.turnId,
      messageId: timed[0]!.messageId,
    });
    const other = await createUser();
    expect((await api(other, `/api/conversations/${conv.id}/timings`)).status).toBe(404);
  }, 90_000);
});
