// The provider a turn or a connection test uses: this user's stored sign-in for this server,
// refreshed when it expires; never starts a sign-in (SignInRequiredError says one is needed).
import { callbackUrl, clientMetadataUrl } from "./client-metadata";
import { D1OAuthProvider } from "./d1-oauth-provider";
import type { SecretBox } from "./secret-box";

export interface SignInServer {
  id: string;
  name: string;
  headers: Record<string, string>;
}

/** Servers with a fixed Authorization header sign in with that, not with OAuth. */
export const usesOAuth = (server: SignInServer) =>
  !Object.keys(server.headers).some((h) => h.toLowerCase() === "authorization");

export function backgroundProvider(
  db: D1Database,
  box: SecretBox,
  userId: string,
  server: SignInServer,
  origin: string,
): D1OAuthProvider | undefined {
  if (!usesOAuth(server)) return undefined;
  return new D1OAuthProvider(
    db,
    box,
    { userId, serverId: server.id },
    callbackUrl(origin),
    { kind: "background", serverName: server.name },
    clientMetadataUrl(origin),
  );
}
