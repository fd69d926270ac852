// Guards on what a model streams in one turn (the chat-ui fork's): small models sometimes fall
// into a loop (the same sentence over and over) or into gibberish, and would stream until the
// token limit. The guard watches the text as it comes and says where to cut it; the loop keeps
// the text up to that point, stops the stream and tells the user why.

export type CutReason = "repetition" | "gibberish" | "answer_cap";

export interface StreamCut {
  reason: CutReason;
  /**
   * How many characters to take back from the end of that kind's stream, the delta just fed
   * included (a loop is seen only once it has repeated, after some copies were shown).
   */
  drop: number;
  /** What the user is told. */
  message: string;
}

export interface StreamGuardLimits {
  /** Most characters of text and reasoning one turn may stream. */
  answerCapChars: number;
}

export const DEFAULT_ANSWER_CAP_CHARS = 60_000;
/** Shortest repeated block that counts (a shorter one is a list or a table, not a loop). */
const MIN_PERIOD = 8;
const MAX_PERIOD = 400;
/** A loop: at least this many characters of the same block repeated, and three copies of it. */
const MIN_LOOP_CHARS = 240;
const MIN_COPIES = 3;
/** Gibberish: this many characters with no whitespace, or mostly neither letters nor digits. */
const MAX_UNBROKEN_RUN = 400;
const SYMBOL_WINDOW = 300;
const MAX_SYMBOL_SHARE = 0.7;
/** The checks run after this many new characters, not on every small delta. */
const CHECK_EVERY = 48;

export type StreamKind = "text" | "reasoning";

export class StreamGuard {
  private readonly texts: Record<StreamKind, string> = { text: "", reasoning: "" };
  private readonly checkedAt: Record<StreamKind, number> = { text: 0, reasoning: 0 };
  private total = 0;

  constructor(
    private readonly limits: StreamGuardLimits,
    /** Characters the turn streamed before this guard began (earlier steps). */
    alreadyStreamed = 0,
  ) {
    this.total = alreadyStreamed;
  }

  /** Feeds one delta of the text or the reasoning; a cut when the stream must stop here. */
  feed(kind: StreamKind, delta: string): StreamCut | null {
    if (this.total + delta.length > this.limits.answerCapChars) {
      return {
        reason: "answer_cap",
        drop: delta.length - Math.max(0, this.limits.answerCapChars - this.total),
        message: `The answer was stopped at ${this.limits.answerCapChars.toLocaleString("en")} characters, the cap for one turn. Ask for the rest, or raise the cap in the conversation's settings.`,
      };
    }
    const text = (this.texts[kind] += delta);
    this.total += delta.length;
    if (text.length - this.checkedAt[kind] < CHECK_EVERY) return null;
    this.checkedAt[kind] = text.length;
    const loopEnd = repetitionCut(text);
    if (loopEnd !== null)
      return {
        reason: "repetition",
        drop: text.length - loopEnd,
        message:
          "The model kept repeating itself, so its answer was stopped where the repetition began. Ask again, perhaps in other words, or try another model.",
      };
    const noiseStart = gibberishCut(text);
    if (noiseStart !== null)
      return {
        reason: "gibberish",
        drop: text.length - noiseStart,
        message:
          "The model's answer turned into gibberish, so it was stopped there. Ask again, or try another model.",
      };
    return null;
  }
}

/**
 * Where the text's repeating tail begins its second copy (the first copy is kept), or null when
 * the tail does not repeat. For each period p, counts how far back text[i] === text[i - p] holds.
 */
export function repetitionCut(text: string): number | null {
  const n = text.length;
  for (let p = MIN_PERIOD; p <= Math.min(MAX_PERIOD, Math.floor(n / MIN_COPIES)); p++) {
    let same = 0;
    while (same < n - p && text[n - 1 - same] === text[n - 1 - same - p]) same++;
    const repeated = same + p;
    if (repeated >= MIN_LOOP_CHARS && repeated >= MIN_COPIES * p) return copyEnd(text, n - same, p);
  }
  return null;
}

/**
 * The periodic stretch may begin mid-sentence (the copy before it ended the same way): the kept
 * copy ends at the first sentence end or line break within one period, when there is one.
 */
function copyEnd(text: string, cut: number, period: number): number {
  const end = /[.!?]\s|\n/.exec(text.slice(cut, cut + period));
  return end ? cut + end.index + end[0].length : cut;
}

/**
 * Where gibberish begins in the text's tail, or null when the tail reads as language. Inside a
 * code block long tokens and symbols are normal, so an open fence turns the check off.
 */
export function gibberishCut(text: string): number | null {
  if ((text.match(/```/g)?.length ?? 0) % 2 === 1) return null;
  const run = /\S+$/.exec(text);
  if (run && run[0].length > MAX_UNBROKEN_RUN && !/^https?:\/\//.test(run[0])) return run.index;
  if (text.length < SYMBOL_WINDOW) return null;
  const start = text.length - SYMBOL_WINDOW;
  const window = text.slice(start);
  const symbols = window.replace(/[\p{L}\p{N}\s]/gu, "").length;
  return symbols / window.length > MAX_SYMBOL_SHARE ? start : null;
}
