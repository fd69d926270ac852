// A server's answer that a call needs the user to open a page first (URLElicitationRequiredError,
// -32042, MCP 2025-11-25: a sign-in or a payment the server runs on its own site). Each page is put
// to the user as a link question, like one the server asks during a call (elicitations.ts: every
// tab sees it, any may answer, `notifications/elicitation/complete` ends it); once they are done,
// the call is made again, once.
import {
  type ElicitRequestURLParams,
  ElicitRequestURLParamsSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ElicitationBridge } from "./tool-runner";

/** The user did not open a page a call needed (its message says why): the call was not made. */
export class PagesNotOpened extends Error {}

const PagesRequired = z.object({ elicitations: z.array(ElicitRequestURLParamsSchema).min(1) });

/** The pages a refused call needs opened first, or null when the error is not that. */
export function pagesRequired(err: unknown): ElicitRequestURLParams[] | null {
  if (!(err instanceof McpError) || err.code !== ErrorCode.UrlElicitationRequired) return null;
  const parsed = PagesRequired.safeParse(err.data);
  return parsed.success ? parsed.data.elicitations : null;
}

/**
 * Asks the user to open each page, in turn. Null when they did them all; otherwise why the call
 * is not made again (a sentence without the server's name).
 */
export async function openPages(
  elicit: ElicitationBridge,
  call: { callId: string; server: string; tool: string },
  pages: readonly ElicitRequestURLParams[],
  signal: AbortSignal,
): Promise<string | null> {
  for (const page of pages) {
    const answer = await elicit
      .ask(call, page, signal)
      .catch((err: unknown) => ({ action: "refused" as const, err }));
    if (answer.action === "accept") continue;
    const asked = `${call.tool} needs a page of the server opened first (“${page.message}”)`;
    if (answer.action === "decline") return `${asked}; the user declined, so it was not run.`;
    if (answer.action === "cancel")
      return `${asked}; the question was closed unanswered, so it was not run.`;
    const why = answer.err instanceof Error ? answer.err.message : String(answer.err);
    return `${asked}, which could not be shown (${why}), so it was not run.`;
  }
  return null;
}
