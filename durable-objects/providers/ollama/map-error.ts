// What can go wrong between the worker and Ollama behind a tunnel → typed provider errors.
// Ollama itself has no credentials; a 401/403 or a redirect to a login page comes from
// Cloudflare Access in front of it, and a 502/52x from the tunnel when Ollama is not reachable.
// Ollama words its errors as {"error": "…"}, in the body of an HTTP error or as a line in a
// stream that began with HTTP 200.
import {
  abortedError,
  connectionError,
  type ErrorContext,
  isAbort,
  providerError,
  statusError,
  TOO_LONG,
} from "../errors";
import type { ProviderErrorInfo } from "../types";

export const OLLAMA: ErrorContext = {
  provider: "Ollama",
  credentials:
    "OLLAMA_ACCESS_CLIENT_ID and OLLAMA_ACCESS_CLIENT_SECRET (the Cloudflare Access service token in front of OLLAMA_BASE_URL)",
};
const WHERE = "Ollama at OLLAMA_BASE_URL";

/** Ollama's message in an error body, or a short plain text; never a web page. */
function detailOf(body: string, contentType: string | null): string {
  try {
    const error = (JSON.parse(body) as { error?: unknown }).error;
    if (typeof error === "string") return error;
    if (error && typeof error === "object" && "message" in error) return String(error.message);
  } catch {
    // not JSON
  }
  if (contentType?.includes("html")) return "";
  return body.trim().slice(0, 300);
}

export function ollamaStatusError(
  status: number,
  body: string,
  headers: Headers,
): ProviderErrorInfo {
  const detail = detailOf(body, headers.get("content-type"));
  if (status === 401 || status === 403)
    return providerError(
      "authentication",
      `The request to Ollama was refused (HTTP ${status}), as Cloudflare Access does without a valid service token: set ${OLLAMA.credentials}.${detail ? ` The answer said: ${detail}` : ""}`,
      { status },
    );
  if (status === 502 || (status >= 520 && status <= 530))
    return providerError(
      "server_error",
      `The tunnel could not reach Ollama (HTTP ${status}): check that Ollama and cloudflared are running and that OLLAMA_BASE_URL is the tunnel's URL.`,
      { status },
    );
  return statusError(status, detail, OLLAMA, headers);
}

/** A redirect never reaches /api/chat (a POST); behind Access it is the login page. */
export function ollamaRedirectError(status: number, location: string | null): ProviderErrorInfo {
  if (location && /cloudflareaccess\.com|\/cdn-cgi\/access\//.test(location))
    return providerError(
      "authentication",
      `Cloudflare Access sent the request to its login page (HTTP ${status}): set ${OLLAMA.credentials} to a valid service token.`,
      { status },
    );
  return providerError(
    "bad_request",
    `OLLAMA_BASE_URL redirects (HTTP ${status}${location ? ` to ${location}` : ""}): set it to the final URL.`,
    { status },
  );
}

/** A 200 answer that is a web page: Access's login page when the service token is missing. */
export const ollamaPageError = () =>
  providerError(
    "authentication",
    `OLLAMA_BASE_URL answered with a web page instead of Ollama's API, as Cloudflare Access does without a valid service token: check ${OLLAMA.credentials}.`,
  );

const CONTEXT = /context (length|window)|too long|exceeds/i;
const NO_MODEL = /model .*not found|try pulling/i;

/** An `error` line inside a stream that began with HTTP 200. */
export function ollamaLineError(message: string): ProviderErrorInfo {
  const said = `Ollama said: ${message}`;
  if (NO_MODEL.test(message))
    return providerError("bad_request", `Ollama does not have this model. ${said}`);
  if (CONTEXT.test(message)) return providerError("context_too_long", `${TOO_LONG} ${said}`);
  return providerError("server_error", `Ollama failed while answering. ${said}`);
}

export const ollamaUnreadable = (line: string) =>
  providerError(
    "server_error",
    `Ollama sent a line that is not its stream format: ${line.slice(0, 120)}`,
  );

export function ollamaFailure(err: unknown, signal?: AbortSignal): ProviderErrorInfo {
  return isAbort(err, signal) ? abortedError() : connectionError(WHERE, err);
}
