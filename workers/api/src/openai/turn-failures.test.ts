// The status a client sees for each way a turn fails, never retried on its own by an SDK.
import { expect, it } from "vitest";
import { turnFailure } from "./turn-failures";

it("answers each turn_failed code with the status that says what went wrong", () => {
  const answers = Object.fromEntries(
    [
      "rate_limit",
      "overloaded",
      "context_too_long",
      "budget_too_small",
      "not_configured",
      "internal",
      "server_error",
      "authentication",
      "restarted",
      "something_new",
    ].map((code) => {
      const err = turnFailure({ code, message: `${code} happened` });
      expect(err.message).toBe(`${code} happened`);
      expect(err.headers).toEqual({ "x-should-retry": "false" });
      return [code, `${err.status} ${err.code}`];
    }),
  );
  expect(answers).toEqual({
    rate_limit: "429 rate_limited",
    overloaded: "503 upstream_failed",
    context_too_long: "400 bad_request",
    budget_too_small: "400 bad_request",
    not_configured: "503 not_configured",
    internal: "500 internal",
    server_error: "502 upstream_failed",
    authentication: "502 upstream_failed",
    restarted: "502 upstream_failed",
    something_new: "502 upstream_failed",
  });
});

it("passes on the provider's Retry-After, when it gave one", () => {
  const limited = turnFailure({ code: "rate_limit", message: "Slow down.", retryAfterSeconds: 42 });
  expect(limited.status).toBe(429);
  expect(limited.headers).toEqual({ "x-should-retry": "false", "retry-after": "42" });
});
