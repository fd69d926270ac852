// Small helpers shared by the tools: results, errors the caller can act on, progress.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { OutsideApiError } from "./outside";

/** Results are bounded: a tool never floods the model's context. */
const MAX_TEXT = 100_000;

export function structured<T extends Record<string, unknown>>(
  value: T,
  summary?: string,
): CallToolResult {
  const text = JSON.stringify(value);
  return {
    content: [
      {
        type: "text",
        text: summary ? `${summary}\n${text.slice(0, MAX_TEXT)}` : text.slice(0, MAX_TEXT),
      },
    ],
    structuredContent: value,
  };
}

export function refused(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Outside failures become isError results that say what happened; anything else is a bug. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OutsideApiError) return refused(err.message);
    throw err;
  }
}

export interface ToolExtra {
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
}

export async function progress(
  extra: ToolExtra,
  value: number,
  total: number,
  message: string,
): Promise<void> {
  const token = extra._meta?.progressToken;
  if (token !== undefined)
    await extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, progress: value, total, message },
    });
}
