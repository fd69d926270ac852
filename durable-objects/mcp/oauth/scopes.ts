// OAuth scopes as the space-separated strings the protocol uses. The step-up rule that adds to
// them is in step-up.ts.

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
