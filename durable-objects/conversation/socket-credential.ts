// The credential a WebSocket or a Server-Sent Events stream was opened with, handed from the API
// worker to the conversation's Durable Object on the upgrade or stream request. Only the worker
// reaches the object, and it always sets this header itself, so a client cannot choose its value.
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
  return (await credentialStatement(db, credential, now).first()) !== null;
}

/** The read behind `credentialIsLive`, for a batch: the credential holds when it finds a row. */
export function credentialStatement(
  db: D1Database,
  credential: SocketCredential,
  now = Date.now(),
): D1PreparedStatement {
  return credential.sessionId
    ? db
        .prepare(
          "SELECT 1 AS ok FROM sessions s JOIN api_tokens t ON t.id = s.token_id WHERE s.id = ? AND s.user_id = ? AND s.token_id = ? AND s.expires_at > ? AND (t.expires_at IS NULL OR t.expires_at > ?)",
        )
        .bind(credential.sessionId, credential.userId, credential.tokenId, now, now)
    : db
        .prepare(
          "SELECT 1 AS ok FROM api_tokens WHERE id = ? AND user_id = ? AND (expires_at IS NULL OR expires_at > ?)",
        )
        .bind(credential.tokenId, credential.userId, now);
}

/** The header's credential, or null when it is missing or malformed. */
export function credentialFromHeader(headers: Headers): SocketCredential | null {
  const header = headers.get(SOCKET_CREDENTIAL_HEADER);
  if (!header) return null;
  try {
    const parsed = SocketCredential.safeParse(JSON.parse(header));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The items whose credential no longer works; items sharing one cost a single D1 read. */
export async function revokedAmong<T>(
  db: D1Database,
  items: Iterable<T>,
  credentialOf: (item: T) => SocketCredential,
): Promise<T[]> {
  const byKey = new Map<string, { credential: SocketCredential; items: T[] }>();
  const revoked: T[] = [];
  for (const item of items) {
    const credential = credentialOf(item);
    const key = `${credential.userId}/${credential.tokenId}/${credential.sessionId ?? ""}`;
    const entry = byKey.get(key) ?? { credential, items: [] };
    entry.items.push(item);
    byKey.set(key, entry);
  }
  for (const { credential, items: sharing } of byKey.values()) {
    if (!(await credentialIsLive(db, credential))) revoked.push(...sharing);
  }
  return revoked;
}
