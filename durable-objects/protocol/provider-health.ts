// GET /api/providers/health: for each configured model provider, whether it answers now, how
// fast its latest checks were, and for Ollama the models the tunnel offers.
import { z } from "zod";

export const ProviderCheck = z.object({
  reachable: z.boolean(),
  latencyMs: z.number().int(),
  /** Milliseconds since the epoch. */
  checkedAt: z.number(),
});
export type ProviderCheck = z.infer<typeof ProviderCheck>;

export const ProviderHealth = z.object({
  id: z.string(),
  reachable: z.boolean(),
  /** How long this check took to be answered (or to fail). */
  latencyMs: z.number().int(),
  /** What is wrong, as a person can fix it (only when not reachable). */
  error: z.string().optional(),
  /** The latest checks, newest first (this one included). */
  recent: z.array(ProviderCheck),
  /** Ollama: the models the tunnel offers. */
  models: z.array(z.string()).optional(),
});
export type ProviderHealth = z.infer<typeof ProviderHealth>;

export const ProvidersHealth = z.object({
  providers: z.array(ProviderHealth),
  /** When no provider is configured: what to set. */
  hint: z.string().optional(),
});
export type ProvidersHealth = z.infer<typeof ProvidersHealth>;
