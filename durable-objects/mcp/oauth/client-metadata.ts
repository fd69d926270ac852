// How this app introduces itself to an authorization server: as a Client ID Metadata Document
// (served by workers/api at CLIENT_METADATA_PATH) where the server supports those, else in a
// Dynamic Client Registration request. Both come from here, so they cannot drift apart.
import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";

export const CALLBACK_PATH = "/api/mcp-oauth/callback";
export const CLIENT_METADATA_PATH = "/api/mcp-oauth/client-metadata.json";

export const callbackUrl = (origin: string) => new URL(CALLBACK_PATH, origin).href;

/** A metadata document URL must be https (SEP-991); local development registers instead. */
export const clientMetadataUrl = (origin: string) =>
  new URL(origin).protocol === "https:" ? new URL(CLIENT_METADATA_PATH, origin).href : undefined;

export function clientMetadata(redirectUrl: string): OAuthClientMetadata {
  const origin = new URL(redirectUrl).origin;
  return {
    client_name: "Thinking Chat",
    client_uri: origin,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    // A public client: PKCE protects the code, and no secret is kept unless a user types one in.
    token_endpoint_auth_method: "none",
  };
}

/** The document at CLIENT_METADATA_PATH: its own URL is the client id. */
export function clientMetadataDocument(origin: string) {
  return {
    client_id: new URL(CLIENT_METADATA_PATH, origin).href,
    ...clientMetadata(callbackUrl(origin)),
  };
}
