// A failed turn's error in plain words: a headline for its kind, then the server's own sentence
// (which already names the setting to check or what the provider said).
import type { ErrorInfo } from "../../../durable-objects/protocol/wire";

const HEADLINES: Record<string, string> = {
  authentication: "The model provider did not accept the key.",
  not_configured: "No model provider is set up for this conversation.",
  // The server's sentence says when to try again (the provider's Retry-After, when it gave one).
  rate_limit: "The model provider is rate limiting us.",
  overloaded: "The model provider is overloaded.",
  server_error: "The model provider had an error.",
  context_too_long: "This conversation is too long for the model.",
  budget_too_small: "This answer's budget is too small for one model call.",
  bad_request: "The model provider refused the request.",
  network: "The model provider could not be reached.",
  aborted: "The answer was stopped.",
};

export function describeError(error: ErrorInfo): string {
  const headline = HEADLINES[error.code] ?? "Something went wrong while answering.";
  return error.message && error.message !== headline ? `${headline} ${error.message}` : headline;
}
