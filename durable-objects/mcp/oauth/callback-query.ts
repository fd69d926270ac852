// The query an authorization server sends the user back with to our OAuth callback. Apart from
// the sign-in flow, so the route can check it without loading the flow (and the MCP SDK's OAuth
// client with it).
import { z } from "zod";

export const CallbackQuery = z.object({
  state: z.string().min(1).max(200).optional(),
  code: z.string().min(1).max(4000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});
export type CallbackQuery = z.infer<typeof CallbackQuery>;

const ERROR_TEXT_MAX = { error: 200, error_description: 1000 } as const;

/**
 * The callback's query as the route reads it: the authorization server's own error text cut to
 * what the schema keeps (a long `error_description` is its wording, not a fault of the user's);
 * null when the rest does not fit, which the callback page then says.
 */
export function readCallbackQuery(raw: Record<string, string>): CallbackQuery | null {
  const query: Record<string, string> = { ...raw };
  for (const [name, max] of Object.entries(ERROR_TEXT_MAX))
    if (query[name] !== undefined) query[name] = query[name].slice(0, max);
  const parsed = CallbackQuery.safeParse(query);
  return parsed.success ? parsed.data : null;
}
