// Which page the address asks for, read before the app's code loads: a read-only link's page
// (`SharedSnapshotPage`, loaded only for it) or the signed-in app.

/** The token in a `/shared/<token>` address, or null for any other page. */
export function sharedTokenOf(pathname: string): string | null {
  const match = /^\/shared\/([^/]+)$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
