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
