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
  const taken = (candidate: string) =>
    sameStep.some((c) => c.id === candidate) ||
    deps.calls.find(candidate) !== null ||
    state.messages.some((m) => m.content.some((p) => p.type === "tool_call" && p.id === candidate));
  if (!taken(id)) return id;
  for (let n = 2; ; n++) if (!taken(`${id}_${n}`)) return `${id}_${n}`;
}
