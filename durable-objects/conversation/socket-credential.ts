// The credential a WebSocket was opened with, handed from the API worker to the conversation's
// Durable Object on the upgrade request. Only the worker reaches the object, and it always
// overwrites this header, so a client cannot choose its value.
import { z } from "zod";

export const SOCKET_CREDENTIAL_HEADER = "x-thinking-chat-credential";

export const SocketCredential = z.object({
  userId: z.string().min(1),
  tokenId: z.string().min(1),
  sessionId: z.string().min(1).optional(),
});
export type SocketCredential = z.infer<typeof SocketCredential>;

/**
 * Whether the credential still works: the token exists and has not expired, and so does the
 * session when there is one. One indexed D1 read.
 */
export async function credentialIsLive(
  db: D1Database,
  credential: SocketCredential,
  now = Date.now(),
): Promise<boolean> {
  const row = credential.sessionId
    ? await db
        .prepare(
          "SELECT 1 AS ok FROM sessions s JOIN api_tokens t ON t.id = s.token_id WHERE s.id = ? AND s.user_id = ? AND s.token_id = ? AND s.expires_at > ? AND (t.expires_at IS NULL OR t.expires_at > ?)",
        )
        .bind(credential.sessionId, credential.userId, credential.tokenId, now, now)
        .first()
    : await db
        .prepare(
          "SELECT 1 AS ok FROM api_tokens WHERE id = ? AND user_id = ? AND (expires_at IS NULL OR expires_at > ?)",
        )
        .bind(credential.tokenId, credential.userId, now)
        .first();
  return row !== null;
}
