// The conversation's route (settings.route) made concrete for one turn: fallback providers built
// from this deployment's keys, and the timeline told which model served each step and why a
// step fell back.
import {
  mayAnswer,
  newRouteRecord,
  noteUnusableCalls,
  type RouteModel,
  type StepRoute,
  streamRouted,
} from "../loop/step-route";
import type { LoopDeps } from "../loop/types";
import type { NewServerEvent } from "../protocol/wire";
import type { ProviderEnv } from "../providers/registry";
import type { ModelProvider } from "../providers/types";
import { type ProviderRefusals, turnProvider } from "./turn-provider";

const PROVIDER_NAMES: Record<ModelProvider["id"], string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
  ollama: "Ollama",
};

const named = (m: RouteModel) => `${PROVIDER_NAMES[m.provider]} (${m.model})`;

export interface ModelRouteInput {
  env: ProviderEnv;
  turnId: string;
  /** The conversation's own model, then the fallbacks of its route. */
  models: RouteModel[];
  /** The conversation's own provider, or null when this deployment has no key for it. */
  own: ModelProvider | null;
  /** Tool steps to the local model (Ollama) first, the final answer to a cloud model. */
  localFirst: boolean;
  /** Streams one model with the retry policy. */
  stream: (
    provider: ModelProvider,
    request: Parameters<LoopDeps["stream"]>[1],
  ) => ReturnType<LoopDeps["stream"]>;
  emit: (event: NewServerEvent) => void;
  /** How long a model may take to send anything before the step falls back. */
  firstEventTimeoutMs: number;
  /** What the conversation knows of, and is told of, the models' refusals. */
  refusals?: ProviderRefusals;
}

/** The loop's stream and routing rules for a conversation with a route. */
export function routedStream(
  input: ModelRouteInput,
): Pick<LoopDeps, "stream"> & { routing: NonNullable<LoopDeps["routing"]> } {
  const route: StepRoute = {
    models: input.models,
    localFirst: input.localFirst,
    record: newRouteRecord(),
    providerFor: (m) => turnProvider(input.env, m, undefined, input.refusals ?? {}),
    stream: input.stream,
    firstEventTimeoutMs: input.firstEventTimeoutMs,
    knownDown: new Map(),
    onFallback: (_step, failures, next) =>
      input.emit({
        type: "notice",
        level: "warning",
        message: `${failures.map((f) => `${named(f)} could not answer: ${f.reason}`).join(" ")} This step falls back to ${named(next)}.`,
      }),
    onServed: (step, served, failed) =>
      input.emit({
        type: "step_model",
        turnId: input.turnId,
        step,
        provider: served.provider,
        model: served.model,
        failed,
      }),
  };
  return {
    stream: (_provider, request, step) => streamRouted(route, input.own, request, step),
    routing: {
      mayAnswer: (step) => mayAnswer(route, step),
      noteUnusableCalls: (step, reasons) => noteUnusableCalls(route, step, reasons),
    },
  };
}
