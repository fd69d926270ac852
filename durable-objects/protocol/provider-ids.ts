// The model providers, by the ids every request and template names them with. The providers'
// own `ProviderId` (providers/types.ts) is checked against this list where the two meet
// (workers/api/src/routes/providers.ts): the protocol imports nothing outside itself.
import { z } from "zod";

export const ProviderIdSchema = z.enum(["anthropic", "openai", "gemini", "ollama"]);
export type ProviderName = z.infer<typeof ProviderIdSchema>;
