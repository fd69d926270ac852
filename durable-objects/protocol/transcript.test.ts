import { describe, expect, it } from "vitest";
import { applyEvent, emptyTranscript, MAX_LOG_LINES, type Transcript } from "./transcript";
import type { NewServerEvent, ServerEvent } from "./wire";

/** Numbers the events as the conversation's log would and folds them. */
function fold(events: NewServerEvent[], from: Transcript = emptyTranscript()): Transcript {
  return events
    .map((e, i) => ({ ...e, seq: from.lastSeq + i + 1, at: 0 }) as ServerEvent)
    .reduce(applyEvent, from);
}

const user = (id: string, text: string, seq: number): NewServerEvent => ({
  type: "user_message",
  message: {
    id,
    role: "user",
    content: [{ type: "text", text }],
    status: "complete",
    seq,
    createdAt: 0,
  },
});
const started = (turnId: string, messageId: string, order: number): NewServerEvent => ({
  type: "turn_started",
  turnId,
  messageId,
  order,
  userMessageId: "u1",
  provider: "anthropic",
  model: "m",
});

describe("the thinking timeline of an answer", () => {
  const turn: NewServerEvent[] = [
    user("u1", "weather?", 1),
    started("t1", "a1", 2),
    { type: "step_started", turnId: "t1", step: 1, maxSteps: 5 },
    {
      type: "tool_call",
      messageId: "a1",
      step: 1,
      callId: "c1",
      server: "weather",
      tool: "forecast",
      arguments: { city: "Paris" },
    },
    { type: "tool_progress", callId: "c1", progress: 1, total: 4, message: "fetching" },
    { type: "tool_log", server: "weather", level: "info", data: { msg: "cache miss" } },
    { type: "tool_progress", callId: "c1", progress: 3, total: 4 },
    { type: "tool_result", messageId: "a1", callId: "c1", isError: false, summary: "21C" },
    { type: "step_started", turnId: "t1", step: 2, maxSteps: 5 },
    { type: "text_delta", messageId: "a1", delta: "It is 21C." },
  ];

  it("shows the step, each call's step, its latest progress and the server's log lines", () => {
    const t = fold(turn);
    const answer = t.messages[1]!;
    expect(answer.activity).toMatchObject({
      step: 2,
      maxSteps: 5,
      callSteps: { c1: 1 },
      progress: { c1: { progress: 3, total: 4 } },
    });
    expect(answer.activity?.log).toEqual([
      { seq: 6, source: "weather", level: "info", text: '{"msg":"cache miss"}' },
    ]);
    expect(answer.content.find((p) => p.type === "tool_call")).toMatchObject({
      status: "done",
      summary: "21C",
    });
  });

  it("records when each tool call started and ended, for the timeline's times", () => {
    const t = turn
      .map((e, i) => ({ ...e, seq: i + 1, at: 1000 * (i + 1) }) as ServerEvent)
      .reduce(applyEvent, emptyTranscript());
    // The call is event 4 and its result event 8.
    expect(t.messages[1]!.activity?.callTimes).toEqual({ c1: { startedAt: 4000, endedAt: 8000 } });
  });

  it("keeps a failed turn's error in plain words on its answer and ends the activity", () => {
    const t = fold(
      [{ type: "turn_failed", turnId: "t1", error: { code: "rate_limit", message: "Slow down." } }],
      fold(turn),
    );
    expect(t.busy).toBe(false);
    expect(t.activeMessageId).toBeNull();
    expect(t.messages[1]).toMatchObject({
      status: "failed",
      activity: { error: { message: "Slow down." } },
    });
  });

  it("files notices under the running answer, and outside any answer in the conversation", () => {
    const before = fold([{ type: "notice", level: "warning", message: "No provider is set up." }]);
    expect(before.notices).toEqual([{ seq: 1, level: "warning", text: "No provider is set up." }]);
    const during = fold(
      [
        started("t1", "a1", 1),
        { type: "notice", level: "warning", message: "The MCP server 'x' is unavailable." },
      ],
      before,
    );
    expect(during.notices).toHaveLength(1);
    expect(during.messages[0]?.activity?.log.map((l) => l.text)).toEqual([
      "The MCP server 'x' is unavailable.",
    ]);
  });

  it("keeps only the newest log lines of a chatty server", () => {
    const lines: NewServerEvent[] = Array.from({ length: MAX_LOG_LINES + 50 }, (_, i) => ({
      type: "tool_log",
      server: "chatty",
      level: "debug",
      data: `line ${i}`,
    }));
    const t = fold([started("t1", "a1", 1), ...lines]);
    const log = t.messages[0]!.activity!.log;
    expect(log).toHaveLength(MAX_LOG_LINES);
    expect(log.at(-1)?.text).toBe(`line ${MAX_LOG_LINES + 49}`);
  });

  it("is the same whether events arrive once or are replayed after a reconnect", () => {
    const once = fold(turn);
    const numbered = turn.map((e, i) => ({ ...e, seq: i + 1, at: 0 }) as ServerEvent);
    const replayed = [...numbered.slice(0, 6), ...numbered].reduce(applyEvent, emptyTranscript());
    expect(replayed).toEqual(once);
  });
});

describe("a step started again after a restart", () => {
  it("replaces what the cut-off step had streamed instead of appending to it", () => {
    const t = fold([
      user("u1", "why?", 1),
      started("t1", "a1", 2),
      { type: "step_started", turnId: "t1", step: 1, maxSteps: 5 },
      { type: "text_delta", messageId: "a1", delta: "Because the sky " },
      { type: "step_restarted", turnId: "t1", messageId: "a1", step: 1, content: [] },
      { type: "step_started", turnId: "t1", step: 1, maxSteps: 5 },
      { type: "text_delta", messageId: "a1", delta: "Because the sky is blue." },
    ]);
    expect(t.messages[1]).toMatchObject({
      status: "streaming",
      content: [{ type: "text", text: "Because the sky is blue." }],
    });
  });
});

describe("approvals in the timeline", () => {
  it("keeps each request with its decision: who, how and when", () => {
    const t = fold([
      user("u1", "tidy", 1),
      started("t1", "a1", 2),
      {
        type: "approval_requested",
        turnId: "t1",
        messageId: "a1",
        approvalId: "ap1",
        callId: "c1",
        step: 1,
        server: "notes",
        tool: "delete_note",
        arguments: { name: "old" },
        expiresAt: 99,
      },
      {
        type: "approval_decided",
        turnId: "t1",
        messageId: "a1",
        approvalId: "ap1",
        callId: "c1",
        decision: "deny",
        note: "keep it",
        by: { via: "websocket", userId: "u" },
      },
    ]);
    expect(t.messages[1]?.activity?.approvals.ap1).toEqual({
      approvalId: "ap1",
      callId: "c1",
      step: 1,
      server: "notes",
      tool: "delete_note",
      arguments: { name: "old" },
      expiresAt: 99,
      decided: { decision: "deny", note: "keep it", via: "websocket", userId: "u", at: 0 },
    });
  });
});

describe("server questions in the timeline", () => {
  it("keep how each was answered and by whom, so a shared conversation can name them", () => {
    const t = fold([
      user("u1", "sign me up", 1),
      started("t1", "a1", 2),
      {
        type: "elicitation_requested",
        turnId: "t1",
        messageId: "a1",
        elicitationId: "el1",
        callId: "c1",
        server: "forms",
        tool: "register",
        mode: "form",
        message: "Your name?",
        expiresAt: 99,
      },
      {
        type: "elicitation_answered",
        turnId: "t1",
        messageId: "a1",
        elicitationId: "el1",
        callId: "c1",
        action: "decline",
        by: { via: "rest", userId: "u-bo" },
      },
    ]);
    expect(t.messages[1]?.activity?.elicitations?.el1?.answered).toEqual({
      action: "decline",
      via: "rest",
      userId: "u-bo",
      at: 0,
    });
  });
});

describe("a branch's copied history", () => {
  it("shows the origin's messages in their order, with the step of each tool call", () => {
    const copied = (id: string, role: "user" | "assistant", seq: number): NewServerEvent => ({
      type: "history_copied",
      message: {
        id,
        role,
        content:
          role === "user"
            ? [{ type: "text", text: "question" }]
            : [
                {
                  type: "tool_call",
                  callId: "c1",
                  server: "library",
                  tool: "lookup",
                  arguments: {},
                  status: "done",
                },
                { type: "text", text: "answer" },
              ],
        status: "complete",
        seq,
        createdAt: 0,
      },
      ...(role === "assistant" && { callSteps: { c1: 1 } }),
    });
    const t = fold([copied("a1", "assistant", 2), copied("u1", "user", 1)]);
    expect(t.messages.map((m) => [m.id, m.role, m.status])).toEqual([
      ["u1", "user", "complete"],
      ["a1", "assistant", "complete"],
    ]);
    expect(t.messages[1]?.activity?.callSteps).toEqual({ c1: 1 });
    expect(t.busy).toBe(false);
  });
});

describe("a question's attached files", () => {
  const asked: NewServerEvent = {
    type: "user_message",
    message: {
      id: "u1",
      role: "user",
      content: [
        { type: "text", text: "read this" },
        {
          type: "attachment",
          artifactId: "f1",
          name: "tides.csv",
          contentType: "text/csv",
          size: 12,
          kind: "table",
        },
      ],
      status: "complete",
      seq: 1,
      createdAt: 0,
    },
  };
  const changed = (change: "title" | "deleted", title: string): NewServerEvent => ({
    type: "artifact_changed",
    artifactId: "f1",
    change,
    title,
    pinned: false,
    updatedAt: 5,
  });
  const chip = (t: Transcript) => t.messages[0]!.content.find((p) => p.type === "attachment");

  it("are marked deleted when their file is deleted, and read its name now when renamed", () => {
    expect(chip(fold([asked, changed("deleted", "tides.csv")]))).toMatchObject({
      name: "tides.csv",
      deleted: true,
    });
    const renamed = chip(fold([asked, changed("title", "tides-2026.csv")]));
    expect(renamed).toMatchObject({ name: "tides-2026.csv" });
    expect(renamed).not.toHaveProperty("deleted");
  });
});

describe("an answer's artifact buttons", () => {
  const made = (title: string): NewServerEvent[] => [
    user("u1", "chart it", 1),
    started("t1", "a1", 2),
    {
      type: "artifact_created",
      messageId: "a1",
      artifact: { id: "x1", type: "image/png", title },
    },
  ];
  const completed: NewServerEvent = {
    type: "message_completed",
    messageId: "a1",
    status: "complete",
    content: [
      { type: "text", text: "Here." },
      { type: "artifact", artifactId: "x1", artifactType: "image/png", title: "Chart" },
    ],
  };
  const changed = (change: "title" | "deleted", title: string): NewServerEvent => ({
    type: "artifact_changed",
    artifactId: "x1",
    change,
    title,
    pinned: false,
    updatedAt: 5,
  });
  const button = (t: Transcript) => t.messages[1]!.content.find((p) => p.type === "artifact");

  it("read the artifact's title now, however the answer came (live or replayed)", () => {
    const live = fold([...made("Chart"), completed, changed("title", "Sales chart")]);
    expect(button(live)).toMatchObject({ title: "Sales chart" });
    expect(button(live)).not.toHaveProperty("deleted");
    // Renamed while the answer still streamed: the completed answer keeps the new title.
    const early = fold([...made("Chart"), changed("title", "Sales chart"), completed]);
    expect(button(early)).toMatchObject({ title: "Sales chart" });
    expect(early.artifacts?.x1).toMatchObject({ change: "title", title: "Sales chart" });
  });

  it("say the artifact was deleted", () => {
    const t = fold([...made("Chart"), completed, changed("deleted", "Chart")]);
    expect(button(t)).toMatchObject({ title: "Chart", deleted: true });
    // Other messages are left as they were (the same objects: they do not render again).
    const before = fold([...made("Chart"), completed]);
    const after = applyEvent(before, { ...changed("deleted", "Chart"), seq: 99, at: 0 });
    expect(after.messages[0]).toBe(before.messages[0]);
  });
});
