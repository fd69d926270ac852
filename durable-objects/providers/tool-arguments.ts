// Tool-call arguments arrive as JSON text in pieces; a call is only complete when it parses.
export type ParsedArguments = { ok: true; value: unknown } | { ok: false; message: string };

export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return {
      ok: false,
      message: `The tool arguments are not valid JSON (${err instanceof Error ? err.message : "parse error"}).`,
    };
  }
}
