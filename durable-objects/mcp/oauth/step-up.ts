// The step-up rule: a 403 `insufficient_scope` names what the server wants; the next sign-in asks
// for that on top of what was granted (SEP-835, unionScopes in scopes.ts), so no earlier grant is
// lost. Apart from scopes.ts, which the API's listing uses, because this loads the MCP SDK's OAuth
// client (its schemas are built as it loads).
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";

/** The scopes a 403 asks for (empty when it names none), or null when it is no step-up request. */
export function stepUpRequest(response: Response): string | null {
  if (response.status !== 403) return null;
  const { error, scope } = extractWWWAuthenticateParams(response);
  return error === "insufficient_scope" ? (scope ?? "") : null;
}
