// REST calls of the "API tokens & sessions" section. Answers are parsed with the shapes the
// worker shares (durable-objects/protocol/access.ts); failures are ApiFailure (../api).
import { z } from "zod";
import { ApiTokenInfo, SessionInfo } from "../../../durable-objects/protocol/access";
import { apiRequest } from "../api";

export const accessApi = {
  tokens: () => apiRequest(z.object({ items: z.array(ApiTokenInfo) }), "/api/tokens"),
  /** The token stops working, and so does every browser session opened with it. */
  revokeToken: (id: string) =>
    apiRequest(z.undefined(), `/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
  sessions: () => apiRequest(z.object({ items: z.array(SessionInfo) }), "/api/sessions"),
  /** Ends every browser session of the user, this one included; tokens keep working. */
  signOutEverywhere: () => apiRequest(z.undefined(), "/api/sessions", { method: "DELETE" }),
};
