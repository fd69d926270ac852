// A start link (`npm start` prints one) carries the API token in its fragment: `/#token=tc_…`.
// The fragment never reaches a server log.

/** The token in a start link's fragment (`#token=…`), or null. */
export function startLinkToken(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") || null;
}

/**
 * What to sign in with from the sign-in box: the token itself, or the token out of a whole start
 * link pasted there (people copy the link `npm start` printed).
 */
export function tokenFromInput(input: string): string {
  const text = input.trim();
  const hash = text.indexOf("#");
  return (hash >= 0 && startLinkToken(text.slice(hash))) || text;
}
