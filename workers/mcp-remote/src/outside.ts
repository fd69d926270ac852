// Calls to outside APIs: a timeout, a size bound, and typed failures the tools turn into isError.
export class OutsideApiError extends Error {
  constructor(
    readonly service: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BYTES = 2 * 1024 * 1024;

export async function fetchText(service: string, url: string, timeoutMs = 15_000): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/json, text/xml;q=0.9, */*;q=0.5" },
    });
  } catch (err) {
    throw new OutsideApiError(
      service,
      null,
      `${service} could not be reached (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  if (res.status === 429)
    throw new OutsideApiError(
      service,
      429,
      `${service} is rate limiting us; try again in a minute.`,
    );
  if (!res.ok)
    throw new OutsideApiError(service, res.status, `${service} answered HTTP ${res.status}.`);
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_BYTES)
    throw new OutsideApiError(service, res.status, `${service} sent more than ${MAX_BYTES} bytes.`);
  const text = await res.text();
  if (text.length > MAX_BYTES)
    throw new OutsideApiError(service, res.status, `${service} sent more than ${MAX_BYTES} bytes.`);
  return text;
}

export async function fetchJson(service: string, url: string): Promise<unknown> {
  const text = await fetchText(service, url);
  try {
    return JSON.parse(text);
  } catch {
    throw new OutsideApiError(service, 200, `${service} sent a malformed response (not JSON).`);
  }
}
