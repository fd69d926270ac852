// The audit log's model requests, recorded where a provider is really asked: with a route, a
// step may ask the conversation's own model, find it down and be served by a fallback. Each
// attempt is one `model_request` naming the model it went to, and the step's `model_response`
// names the model that answered, so the log never credits a request to a model that never got it.
import type { LoopDeps } from "../loop/types";
import type { ModelProvider, ModelRequest, ProviderId, StreamEvent } from "../providers/types";
import type { ModelResponseSummary } from "./audit-log";

/** What the turn records in the audit log (the Durable Object adds the turn's id). */
export interface TurnAudit {
  modelRequest(step: number, provider: ProviderId, request: ModelRequest): void;
  modelResponse(step: number, summary: ModelResponseSummary): void;
}

type AttemptStream = (provider: ModelProvider, request: ModelRequest) => AsyncIterable<StreamEvent>;

export interface AuditedAttempts {
  /** Wraps the stream that asks one model once: each call is recorded as a request. */
  attempt(stream: AttemptStream): AttemptStream;
  /** Wraps the loop's stream, so attempts know the step they serve. */
  step(stream: LoopDeps["stream"]): LoopDeps["stream"];
  /** The loop's audit: each response names the model of the step's last attempt. */
  loopAudit: NonNullable<LoopDeps["audit"]>;
}

export function auditedAttempts(audit: TurnAudit): AuditedAttempts {
  let step = 0;
  let last: { provider: ProviderId; model: string } | null = null;
  return {
    attempt: (stream) => (provider, request) => {
      last = { provider: provider.id, model: request.model };
      audit.modelRequest(step, provider.id, request);
      return stream(provider, request);
    },
    step: (stream) => (provider, request, forStep) => {
      step = forStep;
      last = null;
      return stream(provider, request, forStep);
    },
    loopAudit: {
      modelResponse: (forStep, summary) => audit.modelResponse(forStep, { ...last, ...summary }),
    },
  };
}
