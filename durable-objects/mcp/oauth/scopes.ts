// OAuth scopes as the space-separated strings the protocol uses, and the step-up rule: a 403
// `insufficient_scope` names what the server wants; the next sign-in asks for that on top of
// what was granted (SEP-835), so no earlier grant is lost.
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";

export const scopeList = (scopes: string | null | undefined): string[] =>
  (scopes ?? "").split(/\s+/).filter(Boolean);

/** Every scope of every list, once, in first-seen order; undefined when there is none. */
export function unionScopes(...lists: Array<string | null | undefined>): string | undefined {
  const all = [...new Set(lists.flatMap(scopeList))];
  return all.length > 0 ? all.join(" ") : undefined;
}

/** The scopes of `wanted` that `granted` lacks. */
export function missingScopes(
  wanted: string | null | undefined,
  granted: string | null | undefined,
) {
  const have = new Set(scopeList(granted));
  return scopeList(wanted).filter((s) => !have.has(s));
}

/** The scopes a 403 asks for (empty when it names none), or null when it is no step-up request. */
export function stepUpRequest(response: Response): string | null {
  if (response.status !== 403) return null;
  const { error, scope } = extractWWWAuthenticateParams(response);
  return error === "insufficient_scope" ? (scope ?? "") : null;
}
