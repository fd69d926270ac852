// One model call of a step: the request, its stream read into text and tool calls, every delta
// shown to the user unless a stream guard (a loop, gibberish, the answer cap) cuts it there.
import type {
  FinishReason,
  ModelRequest,
  NeutralPart,
  SealedReasoning,
  ToolDefinition,
} from "../providers/types";
import { appendDelta, dropShown } from "./shown-content";
import { DEFAULT_ANSWER_CAP_CHARS, StreamGuard, type StreamKind } from "./stream-guards";
import type { ErrorInfo } from "../protocol/wire";
import type { LoopDeps, LoopInput, LoopState, PlannedToolCall } from "./types";
import { unusedCallId } from "./unused-call-id";
import { CallMeter } from "./usage-meter";

export interface StepResult {
  text: string;
  calls: PlannedToolCall[];
  /** The model's sealed reasoning (OpenAI's, Claude's signed thinking), sent back before its calls. */
  sealed: SealedReasoning[];
  error?: ErrorInfo;
  /** A guard stopped the stream (a loop, gibberish, the answer cap): the turn ends with what was kept. */
  cut?: boolean;
  /** Why the provider said the answer ended (max tokens, a filter), when it said. */
  finish?: FinishReason;
  /** The provider's own words on why (Anthropic's explanation of a refusal). */
  finishDetail?: string;
}

export async function streamStep(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  system: string,
  tools: ToolDefinition[],
  toolChoice: "auto" | { name: string },
): Promise<StepResult> {
  const out: StepResult = { text: "", calls: [], sealed: [] };
  const guard = new StreamGuard(
    { answerCapChars: input.answerCapChars ?? DEFAULT_ANSWER_CAP_CHARS },
    streamedSoFar(state),
  );
  /** Shows a delta unless a guard cuts the stream there; true when it did. */
  const show = (kind: StreamKind, delta: string): boolean => {
    const cut = guard.feed(kind, delta);
    const kept = cut ? delta.slice(0, Math.max(0, delta.length - cut.drop)) : delta;
    if (kind === "text") out.text += kept;
    appendDelta(state, kind, kept);
    if (kept) deps.emit({ type: `${kind}_delta`, messageId: input.messageId, delta: kept });
    if (!cut) return false;
    const earlier = cut.drop - (delta.length - kept.length);
    dropShown(state, kind, earlier);
    if (kind === "text") out.text = out.text.slice(0, Math.max(0, out.text.length - earlier));
    deps.emit({ type: "notice", level: "warning", message: cut.message });
    out.cut = true;
    return true;
  };
  deps.onModelCall?.();
  // A guard that cuts the stream ends the call here: aborted, it reports the usage it had.
  const call = new AbortController();
  const request = {
    model: input.model,
    system,
    messages: state.messages,
    tools,
    toolChoice,
    maxTokens: input.maxTokens,
    ...(input.temperature !== undefined && { temperature: input.temperature }),
    ...(input.reasoningEffort && { reasoningEffort: input.reasoningEffort }),
    ...(input.contextTokens !== undefined && { contextTokens: input.contextTokens }),
    signal: AbortSignal.any([input.signal, call.signal]),
  };
  const result = await readStream(deps, input, state, request, out, show, call);
  // Max tokens reached with calls: the last one was being written when the output stopped.
  const last = out.finish === "length" ? out.calls.at(-1) : undefined;
  if (last) last.cut = true;
  deps.audit?.modelResponse(state.step, {
    textChars: out.text.length,
    reasoningChars: result.reasoningChars,
    toolCalls: out.calls.map((c) => c.name),
    ...(out.error && { error: out.error }),
  });
  return out;
}

/** After a guard's cut, the most events read while the aborted call ends (it reports usage). */
const DRAIN_AFTER_CUT = 200;

/**
 * Reads one model stream into `out`, showing deltas through `show` (which may cut it). Every
 * call's tokens are metered, a call cut short included: a guard's cut aborts the call and reads
 * on, unshown, until it ends with the usage its provider had.
 */
async function readStream(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  request: ModelRequest,
  out: StepResult,
  show: (kind: StreamKind, delta: string) => boolean,
  call: AbortController,
): Promise<{ reasoningChars: number }> {
  let reasoningChars = 0;
  // Opened before the meter notes the call: a stream that starts its first attempt at once has
  // named the model it went to by then (see `callUnderWay`).
  const events = deps.stream(deps.provider, request, state.step);
  const meter = new CallMeter(deps, input, state, request);
  let drained = 0;
  try {
    for await (const event of events) {
      if (out.cut) {
        // The call was cut: only its usage matters now (and the output it still made).
        if (event.type === "text_delta" || event.type === "reasoning_delta")
          meter.streamed(event.text.length);
        else if (event.type === "usage") meter.usage(event);
        else if (event.type === "error") meter.failed(event.error);
        if (event.type === "error" || event.type === "finish" || ++drained > DRAIN_AFTER_CUT) break;
        continue;
      }
      switch (event.type) {
        case "text_delta":
          meter.streamed(event.text.length);
          if (show("text", event.text)) call.abort();
          break;
        case "reasoning_delta":
          meter.streamed(event.text.length);
          reasoningChars += event.text.length;
          if (show("reasoning", event.text)) call.abort();
          break;
        case "tool_call":
          meter.streamed(event.name.length + JSON.stringify(event.arguments ?? {}).length);
          out.calls.push({
            id: unusedCallId(event.id, deps, state, out.calls),
            name: event.name,
            arguments: event.arguments,
            ...(event.argumentsError && { argumentsError: event.argumentsError }),
            ...(event.signature && { signature: event.signature }),
          });
          break;
        case "encrypted_reasoning":
        case "signed_thinking":
          out.sealed.push(event);
          break;
        case "usage":
          meter.usage(event);
          break;
        case "error":
          if (event.error.code === "invalid_tool_arguments") break; // handled per call below
          meter.failed(event.error);
          out.error = {
            code: event.error.code,
            message: event.error.message,
            ...(event.error.retryAfterMs !== undefined && {
              retryAfterSeconds: Math.max(1, Math.ceil(event.error.retryAfterMs / 1000)),
            }),
          };
          return { reasoningChars };
        case "finish":
          meter.finished();
          out.finish = event.reason;
          if (event.detail) out.finishDetail = event.detail;
          break;
      }
    }
  } finally {
    meter.end();
  }
  return { reasoningChars };
}

/** Characters of text and reasoning the turn has streamed so far (for the answer cap). */
function streamedSoFar(state: LoopState): number {
  return state.shown.reduce((n, p) => n + (p.type === "tool_call" ? 0 : p.text.length), 0);
}

/** What a step said, as the history keeps it: sealed reasoning first, as the model wrote it. */
export function assistantParts(step: Pick<StepResult, "text" | "calls" | "sealed">): NeutralPart[] {
  const { text, calls } = step;
  return [
    ...step.sealed,
    ...(text ? [{ type: "text" as const, text }] : []),
    ...calls.map((c) => ({
      type: "tool_call" as const,
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      ...(c.signature && { signature: c.signature }),
    })),
  ];
}
