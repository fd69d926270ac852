// A server's log line as a person reads it. MCP servers often log a JSON object
// (`{"message":"PubMed: HTTP 200 from …","ms":6}`): its message is shown, with a duration in ms
// and any other plain fields after it. Anything else is shown as it came.

export function logLineText(text: string): string {
  if (!text.trimStart().startsWith("{")) return text;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return text;
  const { message, msg, ms, ...rest } = data as Record<string, unknown>;
  const said = typeof message === "string" ? message : typeof msg === "string" ? msg : null;
  if (said === null) return text;
  const details = Object.entries(rest)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v))
    .map(([k, v]) => `${k}: ${String(v)}`);
  if (typeof ms === "number") details.unshift(`${ms} ms`);
  return details.length ? `${said} (${details.join(", ")})` : said;
}
