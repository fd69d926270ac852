// A provider's call ids are unique within one answer, not always across a conversation: an
// OpenAI-compatible server may number each answer's calls from 0. The conversation keeps each
// call's record and result under its id, and Anthropic refuses a request that holds an id twice,
// so an id met before in the conversation gets a suffix. The model never refers to a call by id
// except in the results we send back, which use the new one.
import type { LoopDeps, LoopState, PlannedToolCall } from "./types";

export function unusedCallId(
  id: string,
  deps: Pick<LoopDeps, "calls">,
  state: Pick<LoopState, "messages">,
  sameStep: readonly PlannedToolCall[],
): string {
  // The taken ids, gathered once: a server that numbers its calls from 0 in every answer reuses
  // `id` once per earlier turn, and trying each suffix against the log and the whole history
  // would cost the number of turns times the history. Only `id` and its suffixes are looked up,
  // so the step's and the history's other ids may sit in the set too.
  const taken = new Set(deps.calls.idsLike(id));
  for (const c of sameStep) taken.add(c.id);
  for (const m of state.messages)
    for (const p of m.content) if (p.type === "tool_call") taken.add(p.id);
  if (!taken.has(id)) return id;
  for (let n = 2; ; n++) if (!taken.has(`${id}_${n}`)) return `${id}_${n}`;
}
