// Whether a step of tool calls told the model anything new. Fresh answers are not enough: a
// model that varies its calls slightly can get the very same results again and again, so a step
// whose results hash the same as an earlier step's is no progress either.
import { canonicalJson } from "./call-key";
import type { CallAnswer, LoopState } from "./types";

export function recordStepProgress(state: LoopState, answers: CallAnswer[]): boolean {
  const hash = resultsHash(answers);
  const seen = state.resultHashes ?? [];
  const progress = answers.some((a) => a.fresh) && !seen.includes(hash);
  state.resultHashes = seen.includes(hash) ? seen : [...seen, hash];
  return progress;
}

/** A hash of what the results said (not of their call ids, which are new on every step). */
export function resultsHash(answers: CallAnswer[]): string {
  return cyrb53(
    canonicalJson(
      answers.map((a) => ({ isError: a.part.isError ?? false, content: a.part.content })),
    ),
  );
}

// cyrb53: a fast 53-bit string hash; collisions are negligible for a turn's handful of steps.
function cyrb53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
