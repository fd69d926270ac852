// Folding a batch of events (as a client catching up does) shows the same transcript as folding
// them one by one, and never changes the transcript it started from.
import { describe, expect, it } from "vitest";
import { applyEvent, applyEvents, emptyTranscript, type Transcript } from "./transcript";
import type { NewServerEvent, ServerEvent } from "./wire";

const numbered = (events: NewServerEvent[], from = 0): ServerEvent[] =>
  events.map((e, i) => ({ ...e, seq: from + i + 1, at: 1000 + i }) as ServerEvent);

/** A turn: the question, a tool call with progress, the answer streamed, then its end. */
function turn(n: number, seqOfQuestion: number, end: "complete" | "failed"): NewServerEvent[] {
  const [u, t, a, c] = [`u${n}`, `t${n}`, `a${n}`, `c${n}`];
  return [
    {
      type: "user_message",
      message: {
        id: u,
        role: "user",
        content: [{ type: "text", text: `Question ${n}` }],
        status: "complete",
        seq: seqOfQuestion,
        createdAt: 0,
      },
    },
    {
      type: "turn_started",
      turnId: t,
      messageId: a,
      order: seqOfQuestion + 1,
      userMessageId: u,
      provider: "anthropic",
      model: "m",
    },
    { type: "step_started", turnId: t, step: 1, maxSteps: 5 },
    { type: "tool_call", messageId: a, step: 1, callId: c, server: "s", tool: "x", arguments: {} },
    { type: "tool_progress", callId: c, progress: 1, total: 2 },
    { type: "tool_result", messageId: a, callId: c, isError: false, summary: "ok" },
    { type: "text_delta", messageId: a, delta: `Answer ` },
    { type: "text_delta", messageId: a, delta: `${n}.` },
    end === "complete"
      ? { type: "turn_ended", turnId: t, status: "complete" }
      : { type: "turn_failed", turnId: t, error: { code: "x", message: "Broke." } },
  ];
}

/** Forty turns, every fifth failing: long enough that lookups go past the newest messages. */
function conversation(): ServerEvent[] {
  const events: NewServerEvent[] = [{ type: "notice", level: "info", message: "Hello." }];
  for (let n = 0; n < 40; n++)
    events.push(...turn(n, events.length + 1, n % 5 === 4 ? "failed" : "complete"));
  return numbered(events);
}

const oneByOne = (events: ServerEvent[], from = emptyTranscript()) =>
  events.reduce(applyEvent, from);

describe("folding a batch of events", () => {
  it("shows what folding them one at a time shows, in any split into batches", () => {
    const events = conversation();
    const expected = oneByOne(events);
    expect(expected.messages).toHaveLength(80);
    expect(expected.messages.filter((m) => m.status === "failed")).toHaveLength(8);
    expect(applyEvents(emptyTranscript(), events)).toEqual(expected);
    for (const size of [1, 7, 50]) {
      let t = emptyTranscript();
      for (let i = 0; i < events.length; i += size) t = applyEvents(t, events.slice(i, i + size));
      expect(t).toEqual(expected);
    }
  });

  it("ignores what it has already seen, so a replay after a reconnect changes nothing", () => {
    const events = conversation();
    const half = applyEvents(emptyTranscript(), events.slice(0, 200));
    expect(applyEvents(half, events)).toEqual(oneByOne(events));
    const all = applyEvents(emptyTranscript(), events);
    expect(applyEvents(all, events.slice(100))).toBe(all);
  });

  it("puts a question that came in while an answer streamed after that answer", () => {
    // The second question was stored (seq 3) before the first answer's turn began at order 2.
    const events = numbered([
      ...turn(0, 1, "complete").slice(0, 1),
      ...turn(1, 3, "complete").slice(0, 1),
      ...turn(0, 1, "complete").slice(1),
    ]);
    const t = applyEvents(emptyTranscript(), events);
    expect(t.messages.map((m) => m.id)).toEqual(["u0", "a0", "u1"]);
    expect(t).toEqual(oneByOne(events));
  });

  it("leaves the transcript it started from as it was, however often it is folded onto", () => {
    const events = conversation();
    const start = applyEvents(emptyTranscript(), events.slice(0, 150));
    const before = structuredClone(start);
    const first = applyEvents(start, events.slice(150));
    const again = applyEvents(start, events.slice(150));
    // A different continuation from the same point: a question of its own.
    const other = applyEvents(start, numbered(turn(99, 151, "complete"), start.lastSeq));
    expect(start).toEqual(before);
    expect(first).toEqual(again);
    expect(first).toEqual(oneByOne(events));
    expect(other.messages.at(-2)?.content).toEqual([{ type: "text", text: "Question 99" }]);
    expect(other.messages).toHaveLength(start.messages.length + 2);
    // Messages no event touched are the same objects, so a view of them need not redraw.
    expect(first.messages[0]).toBe(start.messages[0]);
  });

  it("forgets which answer a turn belonged to once the turn has ended", () => {
    const t: Transcript = applyEvents(emptyTranscript(), conversation());
    expect(t.turnMessages).toEqual({});
    expect(t.callMessages).toEqual({});
    const running = applyEvents(emptyTranscript(), numbered(turn(0, 1, "complete").slice(0, 5)));
    expect(running.turnMessages).toEqual({ t0: "a0" });
    expect(running.callMessages).toEqual({ c0: "a0" });
    expect(running.messages[1]?.activity?.progress).toEqual({ c0: { progress: 1, total: 2 } });
  });
});
