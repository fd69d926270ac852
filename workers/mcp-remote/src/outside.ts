// Calls to outside APIs: a timeout, cancellation, a bound on the bytes read, a log line per call,
// and typed failures that tools turn into isError results.
import type { McpEnv } from "./env";
import type { ToolContext } from "./tool-context";

export type OutsideErrorCode =
  | "unreachable"
  | "timeout"
  | "rate_limited"
  | "http_error"
  | "too_large"
  | "malformed"
  | "refused_query";

export class OutsideApiError extends Error {
  override readonly name = "OutsideApiError";
  constructor(
    readonly code: OutsideErrorCode,
    readonly service: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
  /** Whether the same call may succeed later. */
  get retryable(): boolean {
    return (
      this.code === "rate_limited" ||
      this.code === "timeout" ||
      this.code === "unreachable" ||
      (this.status !== null && this.status >= 500)
    );
  }
}

export interface Outside {
  text(service: string, url: string): Promise<string>;
  json(service: string, url: string): Promise<unknown>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

export function outside(env: McpEnv, ctx: ToolContext): Outside {
  const timeoutMs = Number(env.OUTSIDE_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  const maxBytes = Number(env.OUTSIDE_MAX_BYTES) || DEFAULT_MAX_BYTES;

  async function text(service: string, url: string): Promise<string> {
    const started = Date.now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    // Logged without query strings: they may hold the NCBI api_key.
    const where = url.split("?")[0];
    let res: Response;
    try {
      res = await fetch(url, {
        signal,
        headers: { accept: "application/json, text/xml;q=0.9, */*;q=0.5" },
      });
    } catch (err) {
      const failure = timeout.aborted
        ? new OutsideApiError(
            "timeout",
            service,
            null,
            `${service} did not answer within ${timeoutMs / 1000} s.`,
          )
        : new OutsideApiError(
            "unreachable",
            service,
            null,
            `${service} could not be reached (${err instanceof Error ? err.message : String(err)}).`,
          );
      // The calls that never got an answer are the ones a log reader most needs to see (a call
      // the client cancelled has no one left to tell).
      if (timeout.aborted || !ctx.signal.aborted)
        await ctx.log("warning", `${service}: no answer (${failure.code}) from ${where}`, {
          ms: Date.now() - started,
        });
      throw failure;
    }
    await ctx.log(res.ok ? "info" : "warning", `${service}: HTTP ${res.status} from ${where}`, {
      ms: Date.now() - started,
    });
    if (res.status === 429) {
      await res.body?.cancel();
      const wait = retryAfterSeconds(res.headers.get("retry-after"));
      throw new OutsideApiError(
        "rate_limited",
        service,
        429,
        `${service} is rate limiting us; try again ${wait === null ? "in a minute" : `in ${wait} s`}.`,
      );
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new OutsideApiError(
        "http_error",
        service,
        res.status,
        `${service} answered HTTP ${res.status}.`,
      );
    }
    return readBounded(service, res, maxBytes, timeout);
  }

  return {
    text,
    async json(service, url) {
      const body = await text(service, url);
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw new OutsideApiError(
          "malformed",
          service,
          200,
          `${service} sent a malformed response (not JSON).`,
        );
      }
    },
  };
}

/** Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110 10.2.3), else null. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Reads at most `maxBytes`, stopping the download as soon as the bound is passed. */
async function readBounded(service: string, res: Response, maxBytes: number, timeout: AbortSignal) {
  const tooLarge = () =>
    new OutsideApiError(
      "too_large",
      service,
      res.status,
      `${service} sent more than ${maxBytes} bytes.`,
    );
  if (Number(res.headers.get("content-length") ?? "0") > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let out = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      out += decoder.decode(value, { stream: true });
    }
  } catch (err) {
    if (err instanceof OutsideApiError) throw err;
    if (timeout.aborted)
      throw new OutsideApiError(
        "timeout",
        service,
        res.status,
        `${service} did not finish sending in time.`,
      );
    throw new OutsideApiError(
      "unreachable",
      service,
      res.status,
      `${service} broke off its answer.`,
    );
  }
  return out + decoder.decode();
}
