// Shapes of tool results: structured data with a readable summary, refusals the model can act on.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { OutsideApiError } from "./outside";

/** The text copy of a result is bounded: a tool never floods the model's context. */
export const MAX_TEXT = 100_000;

/**
 * structuredContent for clients that read it (our Conversation DO turns knowledge graphs and
 * bibliographies into artifacts from it), and the same JSON after a one-line summary as text for
 * clients that read only text.
 */
export function structured<T extends Record<string, unknown>>(
  value: T,
  summary: string,
): CallToolResult {
  const json = JSON.stringify(value);
  const text =
    json.length > MAX_TEXT
      ? `${json.slice(0, MAX_TEXT)}… (truncated; see structuredContent)`
      : json;
  return { content: [{ type: "text", text: `${summary}\n${text}` }], structuredContent: value };
}

export function refused(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Outside failures become isError results that say what happened; anything else is a bug. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OutsideApiError)
      return {
        ...refused(
          `${err.message}${err.retryable ? " Trying again later may work." : ""} (${err.code})`,
        ),
        _meta: { error: { code: err.code, service: err.service, retryable: err.retryable } },
      };
    throw err;
  }
}
