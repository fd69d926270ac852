import { describe, expect, it } from "vitest";
import { applyEvent, emptyTranscript } from "../protocol/transcript";
import type { NewServerEvent, ServerEvent } from "../protocol/wire";
import { DeltaCoalescer } from "./delta-coalescer";

/** A log as the object keeps it: each written event gets the next sequence number. */
function log() {
  const written: ServerEvent[] = [];
  const write = (e: NewServerEvent) => {
    const full = { ...e, seq: written.length + 1, at: 0 } as ServerEvent;
    written.push(full);
    return full;
  };
  return { written, write };
}

const text = (delta: string, messageId = "a") =>
  ({ type: "text_delta", messageId, delta }) as const;
const reasoning = (delta: string, messageId = "a") =>
  ({ type: "reasoning_delta", messageId, delta }) as const;

describe("DeltaCoalescer", () => {
  it("sends the first delta at once and merges the burst behind it into one event", async () => {
    const { written, write } = log();
    const deltas = new DeltaCoalescer(write, 10);
    for (let i = 0; i < 50; i++) deltas.add(text(`${i},`), 1000);
    expect(written.map((e) => e.type === "text_delta" && e.delta)).toEqual(["0,"]);
    await new Promise((r) => setTimeout(r, 30));
    expect(written).toHaveLength(2);
    const all = Array.from({ length: 50 }, (_, i) => `${i},`).join("");
    expect(written.map((e) => (e.type === "text_delta" ? e.delta : "")).join("")).toBe(all);
  });

  it("sends an answer's first delta at once, even within the window of the answer before", () => {
    const { written, write } = log();
    const deltas = new DeltaCoalescer(write, 10_000);
    deltas.add(text("first answer", "a"), 1000);
    deltas.add(text(" goes on", "a"), 1000);
    deltas.flush(); // the answer ends
    deltas.add(text("second answer", "b"), 1000);
    expect(written.map((e) => e.type === "text_delta" && e.delta)).toEqual([
      "first answer",
      " goes on",
      "second answer",
    ]);
  });

  it("keeps text, reasoning and other answers apart and in the order they came", () => {
    const { written, write } = log();
    const deltas = new DeltaCoalescer(write, 10);
    const sent: NewServerEvent[] = [
      reasoning("think "),
      reasoning("more "),
      text("Hello"),
      text(" there"),
      reasoning("again"),
      text("other", "b"),
    ];
    for (const d of sent) deltas.add(d as Parameters<DeltaCoalescer["add"]>[0], 1000);
    deltas.flush();
    expect(written.map((e) => [e.type, "delta" in e && e.delta])).toEqual([
      ["reasoning_delta", "think "],
      ["reasoning_delta", "more "],
      ["text_delta", "Hello there"],
      ["reasoning_delta", "again"],
      ["text_delta", "other"],
    ]);
    // The fold of the merged events is the fold of one event per delta.
    const one = sent.map((e, i) => ({ ...e, seq: i + 1, at: 0 }) as ServerEvent);
    const start = (messages: string[]) =>
      messages.reduce(
        (t, id, i) =>
          applyEvent(t, {
            type: "turn_started",
            turnId: id,
            messageId: id,
            userMessageId: "u",
            order: i + 1,
            provider: "",
            model: "",
            seq: 100 + i,
            at: 0,
          }),
        emptyTranscript(),
      );
    const fold = (events: ServerEvent[]) =>
      events
        .map((e) => ({ ...e, seq: e.seq + 200 }))
        .reduce(applyEvent, start(["a", "b"]))
        .messages.map((m) => m.content);
    expect(fold(written)).toEqual(fold(one));
  });

  it("sends a held run once it reaches the character cap", () => {
    const { written, write } = log();
    const deltas = new DeltaCoalescer(write, 10_000, 100);
    deltas.add(text("first"), 1000);
    for (let i = 0; i < 35; i++) deltas.add(text("0123456789"), 1000);
    expect(written.map((e) => (e.type === "text_delta" ? e.delta.length : 0))).toEqual([
      5, 100, 100, 100,
    ]);
    // The rest is held until the window ends or another event comes.
    deltas.flush();
    expect(written.at(-1)).toMatchObject({ delta: "0123456789".repeat(5) });
  });
});
