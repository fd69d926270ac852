// Words for API tokens and browser sessions in the settings panel.
import type { ApiTokenInfo, SessionInfo } from "../../../durable-objects/protocol/access";
import { lastActivity } from "../conversations/time";

/** The label given at creation, or a name made from the id when there was none. */
export const tokenName = (token: Pick<ApiTokenInfo, "id" | "label">) =>
  token.label.trim() || `Token ${token.id.slice(0, 8)}`;

export function expiryWords(expiresAt: number | null, now = Date.now()): string {
  if (expiresAt === null) return "Never expires";
  if (expiresAt <= now) return "Expired";
  return `Expires ${lastActivity(expiresAt, now)}`;
}

export const lastUsedWords = (lastUsedAt: number | null, now = Date.now()) =>
  lastUsedAt === null ? "Never used" : `Last used ${lastActivity(lastUsedAt, now)}`;

export const createdWords = (createdAt: number, now = Date.now()) =>
  `Created ${lastActivity(createdAt, now)}`;

export const signedInWords = (createdAt: number, now = Date.now()) =>
  `Signed in ${lastActivity(createdAt, now)}`;

/** Which token opened a session, by name; a token revoked since is no longer listed. */
export function sessionTokenName(session: SessionInfo, tokens: ApiTokenInfo[]): string {
  const token = tokens.find((t) => t.id === session.tokenId);
  return token ? tokenName(token) : "a token that no longer exists";
}

/** Revoking the token this browser signed in with signs this browser out too. */
export const revokingSignsOut = (token: ApiTokenInfo) => token.current;
