// What went wrong in a sign-in, as a stable code and a sentence saying what to do. Each code is
// the state the server is left in (see connection-store.ts).
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  AccessDeniedError,
  InvalidClientMetadataError,
  InvalidGrantError,
  OAuthError,
  ServerError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { RefusedUrlError } from "../guarded-fetch";
import { EncryptionKeyError } from "./secret-box";

export type SignInErrorCode =
  | "metadata_invalid"
  | "registration_refused"
  | "registration_unavailable"
  | "consent_cancelled"
  | "token_error"
  | "refused_url"
  | "not_configured"
  | "sign_in_failed";

export interface SignInProblem {
  code: SignInErrorCode;
  message: string;
}

/** A server that needs the user to sign in (again); a turn skips it and says so. */
export class SignInRequiredError extends UnauthorizedError {
  readonly code = "needs_sign_in";
  constructor(
    readonly serverName: string,
    readonly again: boolean,
  ) {
    super(
      again
        ? `The MCP server '${serverName}' needs you to sign in again (the sign-in expired or was revoked). Open Settings → MCP servers and press Sign in again.`
        : `The MCP server '${serverName}' needs you to sign in. Open Settings → MCP servers and press Connect.`,
    );
    this.name = "SignInRequiredError";
  }
}

/** The server wants scopes this sign-in was not granted (403 insufficient_scope). */
export class MoreAccessRequiredError extends SignInRequiredError {
  constructor(serverName: string, scopes: string | undefined) {
    super(serverName, true);
    this.message = `The MCP server '${serverName}' needs more access for this${scopes ? ` (scopes: ${scopes})` : ""} than your sign-in grants. Open Settings → MCP servers and press Sign in again to grant it.`;
    this.name = "MoreAccessRequiredError";
  }
}

const short = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** Where the flow was when it failed: the last URL it fetched, and the endpoints it knew. */
export interface FailureContext {
  lastUrl?: string;
  registrationEndpoint?: string;
  tokenEndpoint?: string;
}

export function describeSignInError(
  err: unknown,
  host: string,
  where: FailureContext = {},
): SignInProblem {
  const text = short((err instanceof Error ? err.message : String(err)).replace(/\.$/, ""));
  const at = (endpoint?: string) => !!endpoint && where.lastUrl === endpoint;
  if (err instanceof EncryptionKeyError) return { code: "not_configured", message: err.message };
  if (err instanceof RefusedUrlError)
    return {
      code: "refused_url",
      message: `${text}. Sign-in only talks to public https:// addresses.`,
    };
  if (err instanceof AccessDeniedError)
    return {
      code: "consent_cancelled",
      message: `The sign-in at ${host} was cancelled or refused. Press Connect to try again.`,
    };
  if (/does not support dynamic client registration/i.test(text))
    return {
      code: "registration_unavailable",
      message: `${host} does not let apps register themselves. Create an OAuth client in that service's settings (with the redirect URL shown here), enter its client ID (and secret), and press Connect.`,
    };
  if (at(where.registrationEndpoint) || err instanceof InvalidClientMetadataError)
    return {
      code: "registration_refused",
      message: `${host} refused to register this app (${text}). Enter a client ID that service gave you, or ask its administrator to allow this app.`,
    };
  if (at(where.tokenEndpoint) || err instanceof InvalidGrantError || err instanceof ServerError)
    return {
      code: "token_error",
      message: `${host} did not issue a sign-in token (${text}). Press Connect to try again; if it keeps failing, the service may be down.`,
    };
  if (
    /metadata|well-known|Incompatible auth server/i.test(text) ||
    where.lastUrl?.includes("/.well-known/") ||
    (err instanceof Error && err.name === "ZodError")
  )
    return {
      code: "metadata_invalid",
      message: `${host} does not describe its sign-in correctly (${text}). Its OAuth metadata is missing or malformed: ask the server's operator, or use a token in the headers instead.`,
    };
  if (err instanceof OAuthError)
    return {
      code: "token_error",
      message: `${host} refused the sign-in (${text}). Press Connect to try again.`,
    };
  return {
    code: "sign_in_failed",
    message: `Signing in to ${host} failed (${text}). Press Connect to try again.`,
  };
}
