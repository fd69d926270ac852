// Model turns for the /v1 tests (workers/api/src/openai/): a provider that fails every try of a
// turn, with a server error or a rate limit. Registered before the catch-all answer in
// global-setup.ts.
import type { LLMock } from "@copilotkit/aimock";

export const PROVIDER_DOWN = "v1 provider down";
export const PROVIDER_RATE_LIMITED = "v1 provider rate limited";

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
}
