// Model turns for the /v1 tests (workers/api/src/openai/): a provider that fails every try of a
// turn, with a server error or a rate limit. Registered before the catch-all answer in
// global-setup.ts.
import type { LLMock } from "@copilotkit/aimock";

export const PROVIDER_DOWN = "v1 provider down";
export const PROVIDER_RATE_LIMITED = "v1 provider rate limited";

export const CUT_AT_MAX_TOKENS = "an answer cut at max tokens";
export const BLOCKED_BY_FILTER = "an answer the filter blocks";

export function addOpenAiCompatFixtures(mock: LLMock): void {
  mock.onMessage(new RegExp(PROVIDER_DOWN), {
    error: { message: "Internal server error", type: "api_error" },
    status: 500,
  });
  // aimock says Retry-After: 1 with a 429.
  mock.onMessage(new RegExp(PROVIDER_RATE_LIMITED), {
    error: { message: "Rate limit reached for requests", type: "rate_limit_error" },
    status: 429,
  });
  // Answers the provider ended short: at the answer's max tokens, and by its safety filter.
  mock.onMessage(new RegExp(CUT_AT_MAX_TOKENS), {
    content: "This answer stops in the mid",
    finishReason: "length",
  });
  mock.onMessage(new RegExp(BLOCKED_BY_FILTER), {
    content: "",
    finishReason: "content_filter",
  });
}
