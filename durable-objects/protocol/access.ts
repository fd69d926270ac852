// Shapes of the access API shared by the worker and the web client: API tokens and sessions.
import { z } from "zod";

export const ApiTokenInfo = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.number(),
  expiresAt: z.number().nullable(),
  lastUsedAt: z.number().nullable(),
  /** The token this request (or its session) was authenticated with. */
  current: z.boolean(),
});
export type ApiTokenInfo = z.infer<typeof ApiTokenInfo>;

export const SessionInfo = z.object({
  id: z.string(),
  tokenId: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  /** The session of this browser. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const AccessOverview = z.object({
  tokens: z.array(ApiTokenInfo),
  sessions: z.array(SessionInfo),
});
export type AccessOverview = z.infer<typeof AccessOverview>;
