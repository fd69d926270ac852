// Routing a step's model call: the conversation's own model first, then the route's fallbacks in
// order, moving on only when a provider is down before it showed anything. The history stays
// in the neutral format, so the fallback's adapter converts it as it would after a switch.
import { withFirstEventTimeout } from "./first-event-timeout";
import type {
  ModelProvider,
  ModelRequest,
  ProviderErrorInfo,
  StreamEvent,
} from "../providers/types";

export interface RouteModel {
  provider: ModelProvider["id"];
  model: string;
}

/** A model that could not serve a step, and why (the provider's own message). */
export interface RouteFailure extends RouteModel {
  reason: string;
}

export interface StepRoute {
  /** The conversation's own model first, then the fallbacks. */
  models: RouteModel[];
  /** The provider for a fallback, or null when this deployment has no key for it. */
  providerFor: (model: RouteModel) => ModelProvider | null;
  /** Streams one model with the retry policy (so a 5xx falls back only after the retries). */
  stream: (provider: ModelProvider, request: ModelRequest) => AsyncIterable<StreamEvent>;
  /** The step moves on to `next` after the models that just failed (in order). */
  onFallback: (step: number, failures: RouteFailure[], next: RouteModel) => void;
  /**
   * Models found down earlier in this turn (by provider/model), with their error: later steps go
   * straight past them while a model after them has not failed too. Create one per turn.
   */
  knownDown: Map<string, StreamError>;
  /** How long a model may take to send anything before the step falls back (ms). */
  firstEventTimeoutMs: number;
  /** The model that served the step's call, after the `failed` ones. */
  onServed: (step: number, served: RouteModel, failed: RouteFailure[]) => void;
}

/**
 * The provider is down, not the request wrong: the connection failed or timed out, or the
 * provider kept answering 5xx. A refused key, a bad request or a cancel would fail anywhere.
 */
export function isProviderDown(error: ProviderErrorInfo): boolean {
  return error.code === "network" || error.code === "server_error" || error.code === "overloaded";
}

const NOT_CONFIGURED = "this deployment has no key for it.";

/** Events the user may have seen: after one of them the step cannot move to another model. */
const SHOWN: ReadonlySet<StreamEvent["type"]> = new Set([
  "text_delta",
  "reasoning_delta",
  "tool_call",
]);

type StreamError = Extract<StreamEvent, { type: "error" }>;

const keyOf = (m: RouteModel) => `${m.provider}/${m.model}`;

/**
 * Streams the first model of the route that can serve the request. Once a model has sent text,
 * reasoning or a tool call the user may have seen it, so a later failure is the step's error.
 */
export async function* streamRouted(
  route: StepRoute,
  primary: ModelProvider,
  request: ModelRequest,
  step: number,
): AsyncIterable<StreamEvent> {
  const failed: RouteFailure[] = [];
  let lastError: StreamError | null = null;
  let told = 0; // failures already announced by onFallback
  for (const [index, model] of route.models.entries()) {
    const earlier = route.knownDown.get(keyOf(model));
    const laterMayServe = route.models.slice(index + 1).some((m) => !route.knownDown.has(keyOf(m)));
    if (earlier && laterMayServe) {
      // Already said in the timeline when it failed: the step names it in `failed` only.
      failed.push({ ...model, reason: `down earlier in this turn: ${earlier.error.message}` });
      told = failed.length;
      lastError = earlier;
      continue;
    }
    const provider = index === 0 ? primary : route.providerFor(model);
    if (!provider) {
      failed.push({ ...model, reason: NOT_CONFIGURED });
      continue;
    }
    if (failed.length > told) route.onFallback(step, failed.slice(told), model);
    told = failed.length;
    let shown = false;
    let announced = false;
    let down: StreamError | null = null;
    const events = withFirstEventTimeout(
      (signal) => route.stream(provider, { ...request, model: model.model, signal }),
      route.firstEventTimeoutMs,
      request.signal,
    );
    for await (const event of events) {
      if (event.type === "error" && !shown && isProviderDown(event.error)) {
        down = event;
        break;
      }
      shown ||= SHOWN.has(event.type);
      if (!announced && (shown || event.type === "finish")) {
        announced = true;
        route.onServed(step, model, failed);
      }
      // A fallback's usage is priced and recorded as that model's, not the conversation's.
      yield event.type === "usage" && index > 0 ? { ...event, servedBy: model } : event;
    }
    if (!down) return;
    lastError = down;
    route.knownDown.set(keyOf(model), down);
    failed.push({ ...model, reason: down.error.message });
    if (request.signal?.aborted) break;
  }
  // Every model is down (or unconfigured): the step fails with the last provider's error.
  if (lastError) yield lastError;
}
