import { describe, expect, it } from "vitest";
import { gibberishCut, repetitionCut, StreamGuard } from "./stream-guards";
import { runScripted, say, stop } from "./test/scripted-loop";

const SENTENCE = "I will check the data again to be sure that nothing was missed. ";
const INTRO = "The trial enrolled 120 patients across four sites. ";

/** Characters from `alphabet` in a fixed pseudo-random order (no period to find). */
function noise(alphabet: string, length: number): string {
  let seed = 42;
  return Array.from({ length }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return alphabet[seed % alphabet.length];
  }).join("");
}

/** Feeds text in chunks of `size`, as a provider streams it; the cut and what the user keeps. */
function stream(text: string, size = 7, cap = 100_000) {
  const guard = new StreamGuard({ answerCapChars: cap });
  let shown = "";
  for (let i = 0; i < text.length; i += size) {
    const delta = text.slice(i, i + size);
    const cut = guard.feed("text", delta);
    shown += delta;
    if (cut) return { cut, kept: shown.slice(0, shown.length - cut.drop) };
  }
  return { cut: null, kept: shown };
}

describe("stream guards", () => {
  it("cuts a stream that repeats a long sentence, keeping one copy of it", () => {
    const { cut, kept } = stream(INTRO + SENTENCE.repeat(40));
    expect(cut?.reason).toBe("repetition");
    expect(kept).toBe(INTRO + SENTENCE);
  });

  it("leaves ordinary prose, lists and tables alone", () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| site ${i + 1} | ${10 + i} patients |\n`);
    const prose = Array.from({ length: 30 }, (_, i) => `Point ${i + 1}: ${INTRO}`).join("");
    expect(stream(`| site | n |\n|---|---|\n${rows.join("")}`).cut).toBeNull();
    expect(stream(prose).cut).toBeNull();
    expect(
      stream("```\n" + noise("abcdefghijklmnopqrstuvwxyz0123456789+/", 800) + "\n```\nDone.").cut,
    ).toBeNull();
  });

  it("cuts gibberish where it starts: a long run without spaces, or mostly symbols", () => {
    expect(gibberishCut(INTRO + noise("qwertzuiop", 500))).toBe(INTRO.length);
    expect(gibberishCut(INTRO + noise("#$%^&*(){}[]| ~", 400))).not.toBeNull();
    expect(gibberishCut(INTRO + "See https://example.org/" + "a".repeat(500))).toBeNull();
    expect(stream(INTRO + noise("¤§¶•–≠±× ", 600)).cut?.reason).toBe("gibberish");
  });

  it("finds no loop in text without one", () => {
    expect(repetitionCut(INTRO.repeat(2))).toBeNull();
  });

  it("stops at the answer cap", () => {
    const { cut, kept } = stream(INTRO.repeat(10), 10, 200);
    expect(cut?.reason).toBe("answer_cap");
    expect(kept).toHaveLength(200);
  });
});

describe("a guarded turn", () => {
  it("ends a looping answer with what came before the loop, and tells the user", async () => {
    const chunks = (INTRO + SENTENCE.repeat(50)).match(/.{1,9}/gs) ?? [];
    const { outcome, events, requests } = await runScripted({
      tools: [],
      steps: [[...chunks.map(say), stop]],
    });
    expect(outcome.status).toBe("complete");
    expect(outcome.content).toEqual([{ type: "text", text: INTRO + SENTENCE }]);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        level: "warning",
        message: expect.stringContaining("kept repeating itself"),
      }),
    );
    // The rest of the stream is not read and no further model call is made.
    const streamed = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
    expect(streamed.length).toBeLessThan((INTRO + SENTENCE.repeat(10)).length);
    expect(requests).toHaveLength(1);
  });

  it("stops at the turn's answer cap", async () => {
    const { outcome, events } = await runScripted({
      tools: [],
      input: { answerCapChars: 120 },
      steps: [[...Array.from({ length: 20 }, () => say(INTRO)), stop]],
    });
    expect(outcome.content).toEqual([{ type: "text", text: INTRO.repeat(3).slice(0, 120) }]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "notice", message: expect.stringContaining("cap") }),
    );
  });
});
