// Routing a step's model call: the conversation's own model first, then the route's fallbacks in
// order, moving on when a provider is down before it showed anything or when a model has twice
// sent tool calls that could not be used. With "local first", tool steps try the local model
// (Ollama) first and the final answer the cloud models. The history stays in the neutral format,
// so the fallback's adapter converts it as it would after a switch.
import { withFirstEventTimeout } from "./first-event-timeout";
import { FORMATTER_TOOL } from "./formatter";
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
  /** Tool steps go to the local model first, the final answer to the cloud models first. */
  localFirst: boolean;
  /** What this turn learnt about its models (create one per turn with `newRouteRecord()`). */
  record: RouteRecord;
}

export interface RouteRecord {
  /** The model that served each step. */
  servedBy: Map<number, RouteModel>;
  /** Steps in a row whose tool calls could not be used, by model. */
  strikes: Map<string, number>;
  /** Why each set-aside model was set aside, and whether the timeline was told yet. */
  setAside: Map<string, { reason: string; told: boolean }>;
}

export const newRouteRecord = (): RouteRecord => ({
  servedBy: new Map(),
  strikes: new Map(),
  setAside: new Map(),
});

/** Steps in a row whose tool calls could not be used before the model is set aside. */
export const UNUSABLE_STEPS_LIMIT = 2;

/** The model that runs tools on this machine's side of the tunnel. */
export const isLocal = (m: RouteModel) => m.provider === "ollama";

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
 * The step's tool calls could not be used (`reasons`, one per bad call) or could (none). When
 * the model that served it has now failed that way UNUSABLE_STEPS_LIMIT steps in a row, it is
 * set aside for the rest of the turn and true is returned: the next step goes to another model.
 */
export function noteUnusableCalls(route: StepRoute, step: number, reasons: string[]): boolean {
  const model = route.record.servedBy.get(step);
  if (!model) return false;
  const key = keyOf(model);
  const strikes = reasons.length === 0 ? 0 : (route.record.strikes.get(key) ?? 0) + 1;
  route.record.strikes.set(key, strikes);
  if (strikes < UNUSABLE_STEPS_LIMIT) return false;
  const others = route.models.some((m) => keyOf(m) !== key && !route.record.setAside.has(keyOf(m)));
  if (!others) return false;
  route.record.setAside.set(key, {
    reason: `it sent tool calls that could not be used ${strikes} steps in a row (${[...new Set(reasons)].join("; ")}).`,
    told: false,
  });
  return true;
}

/**
 * Whether the model that served `step` may give the final answer: with "local first" the local
 * model's answer is left to a cloud model (which the forced formatter step then asks).
 */
export function mayAnswer(route: StepRoute, step: number): boolean {
  const model = route.record.servedBy.get(step);
  return !route.localFirst || !model || !isLocal(model) || route.models.every(isLocal);
}

/** The order the step tries the models in: the route's, or local first for tool steps. */
function stepOrder(route: StepRoute, request: ModelRequest): { model: RouteModel; own: boolean }[] {
  const all = route.models.map((model, index) => ({ model, own: index === 0 }));
  if (!route.localFirst) return all;
  const answering =
    typeof request.toolChoice === "object" && request.toolChoice.name === FORMATTER_TOOL;
  const first = all.filter((m) => isLocal(m.model) !== answering);
  return [...first, ...all.filter((m) => !first.includes(m))];
}

/**
 * Streams the first model of the route that can serve the request. Once a model has sent text,
 * reasoning or a tool call the user may have seen it, so a later failure is the step's error.
 */
export async function* streamRouted(
  route: StepRoute,
  /** The conversation's own provider, or null when this deployment has no key for it. */
  primary: ModelProvider | null,
  request: ModelRequest,
  step: number,
): AsyncIterable<StreamEvent> {
  const failed: RouteFailure[] = [];
  let lastError: StreamError | null = null;
  let told = 0; // failures already announced by onFallback
  const order = stepOrder(route, request);
  const unavailable = (m: RouteModel) =>
    route.knownDown.has(keyOf(m)) || route.record.setAside.has(keyOf(m));
  for (const [index, { model, own }] of order.entries()) {
    const earlier = route.knownDown.get(keyOf(model));
    const setAside = route.record.setAside.get(keyOf(model));
    const laterMayServe = order.slice(index + 1).some((m) => !unavailable(m.model));
    if (earlier && laterMayServe) {
      // Already said in the timeline when it failed: the step names it in `failed` only.
      failed.push({ ...model, reason: `down earlier in this turn: ${earlier.error.message}` });
      told = failed.length;
      lastError = earlier;
      continue;
    }
    if (setAside && laterMayServe) {
      failed.push({ ...model, reason: setAside.reason });
      // Told once, on the first step that goes past it.
      if (setAside.told) told = failed.length;
      setAside.told = true;
      continue;
    }
    const provider = own ? primary : route.providerFor(model);
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
        route.record.servedBy.set(step, model);
        route.onServed(step, model, failed);
      }
      // A fallback's usage is priced and recorded as that model's, not the conversation's.
      yield event.type === "usage" && !own ? { ...event, servedBy: model } : event;
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
