// @google/genai errors → typed provider errors. The SDK raises an ApiError whose message is the
// error body as JSON, for an HTTP error and (prefixed with "got status: …") for an error frame
// inside the stream; Gemini's own details say more than the status: an invalid key is a 400 with
// reason API_KEY_INVALID, and a 429 carries its wait as RetryInfo.retryDelay ("37s").
import { ApiError } from "@google/genai";
import {
  abortedError,
  connectionError,
  type ErrorContext,
  isAbort,
  providerError,
  statusError,
} from "../errors";
import type { ProviderErrorInfo } from "../types";

export const GEMINI: ErrorContext = { provider: "Gemini", credentials: "GEMINI_API_KEY" };

interface GoogleErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: Array<{ "@type"?: string; reason?: string; retryDelay?: string }>;
  };
}

export interface GeminiErrorContext {
  signal?: AbortSignal;
  /** The HTTP response's headers, when one arrived (the SDK's errors drop them). */
  headers?: Headers | null;
  /** Whether the SDK got as far as sending the request. */
  sent: boolean;
  /** Whether the error came while reading a stream that had begun (no HTTP status applies). */
  inStream: boolean;
}

function errorBody(message: string): GoogleErrorBody["error"] {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    return (JSON.parse(message.slice(start)) as GoogleErrorBody).error;
  } catch {
    return undefined;
  }
}

/** "37s" or "1.5s" → milliseconds. */
function retryDelayMs(body: GoogleErrorBody["error"]): number | undefined {
  const delay = body?.details?.find((d) => d.retryDelay)?.retryDelay;
  const seconds = delay ? Number(delay.replace(/s$/, "")) : NaN;
  return Number.isFinite(seconds) ? Math.max(0, seconds * 1000) : undefined;
}

const INVALID_KEY = /API key not valid|API key expired|API_KEY_INVALID/i;

function apiError(err: ApiError, ctx: GeminiErrorContext): ProviderErrorInfo {
  const body = errorBody(err.message);
  const detail = body?.message ?? err.message;
  const keyRefused =
    body?.details?.some((d) => d.reason === "API_KEY_INVALID") || INVALID_KEY.test(detail);
  let info: ProviderErrorInfo = keyRefused
    ? providerError(
        "authentication",
        `Gemini refused the credentials (HTTP ${err.status}). Set GEMINI_API_KEY to a valid value. Gemini said: ${detail}`,
        { status: err.status },
      )
    : statusError(err.status, detail, GEMINI, ctx.headers);
  const wait = retryDelayMs(body);
  if (info.retryable && info.retryAfterMs === undefined && wait !== undefined)
    info = { ...info, retryAfterMs: wait };
  if (ctx.inStream) {
    const { status: _status, ...rest } = info;
    info = rest;
  }
  return info;
}

export function mapGeminiError(err: unknown, ctx: GeminiErrorContext): ProviderErrorInfo {
  if (isAbort(err, ctx.signal)) return abortedError();
  if (err instanceof ApiError) return apiError(err, ctx);
  const message = err instanceof Error ? err.message : String(err);
  if (!ctx.sent)
    // The SDK refused to build the request (a tool schema it cannot convert, for instance).
    return providerError("bad_request", `The request to Gemini could not be built: ${message}`);
  if (/exception parsing stream chunk/.test(message))
    return providerError("server_error", `Gemini sent a malformed stream: ${message}`);
  return connectionError("Gemini", err);
}
