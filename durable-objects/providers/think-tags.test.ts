import { describe, expect, it } from "vitest";
import { splitThinkTags } from "./think-tags";
import type { StreamEvent } from "./types";

async function split(...parts: Array<string | StreamEvent>) {
  async function* source(): AsyncIterable<StreamEvent> {
    for (const p of parts) yield typeof p === "string" ? { type: "text_delta", text: p } : p;
  }
  const out: StreamEvent[] = [];
  for await (const e of splitThinkTags(source())) out.push(e);
  // Adjacent deltas of one kind read as one text: how they were cut does not matter.
  const merged: Array<{ type: string; text?: string }> = [];
  for (const e of out) {
    const last = merged.at(-1);
    if ((e.type === "text_delta" || e.type === "reasoning_delta") && last?.type === e.type)
      last.text += e.text;
    else merged.push({ ...e });
  }
  return merged;
}

const FINISH: StreamEvent = { type: "finish", reason: "stop" };

describe("reasoning a local model writes between <think> tags", () => {
  it("becomes reasoning, and the answer starts after it", async () => {
    expect(await split("<think>\nGreet back.\n</think>\n\nHello!", FINISH)).toEqual([
      { type: "reasoning_delta", text: "\nGreet back.\n" },
      { type: "text_delta", text: "Hello!" },
      FINISH,
    ]);
  });

  it("is found however the stream cuts the tags", async () => {
    expect(await split("  <th", "ink>Hm", "m.</th", "ink", ">", "\n", "\nYes.", FINISH)).toEqual([
      { type: "reasoning_delta", text: "Hmm." },
      { type: "text_delta", text: "Yes." },
      FINISH,
    ]);
  });

  it("is all reasoning when the answer was cut before </think>", async () => {
    const cut: StreamEvent = { type: "finish", reason: "length" };
    expect(await split("<think>Still thinking </thi", cut)).toEqual([
      { type: "reasoning_delta", text: "Still thinking </thi" },
      cut,
    ]);
  });

  it("leaves tags that do not open the answer, and look-alikes, as the answer's text", async () => {
    expect(await split("Use <think> in prompts.", FINISH)).toEqual([
      { type: "text_delta", text: "Use <think> in prompts." },
      FINISH,
    ]);
    expect(await split("<thin", "king>", FINISH)).toEqual([
      { type: "text_delta", text: "<thinking>" },
      FINISH,
    ]);
    expect(await split("<th", FINISH)).toEqual([{ type: "text_delta", text: "<th" }, FINISH]);
  });

  it("passes other events through in order", async () => {
    const call: StreamEvent = { type: "tool_call", id: "c1", name: "t", arguments: {} };
    expect(
      await split({ type: "reasoning_delta", text: "Native." }, "<think>a</think>b", call),
    ).toEqual([
      { type: "reasoning_delta", text: "Native.a" },
      { type: "text_delta", text: "b" },
      call,
    ]);
  });
});
