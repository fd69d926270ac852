// Idempotency-Key on POST /v1/chat/completions and /v1/responses. A client that resends a request
// after a dropped connection (the SDKs retry on network errors) must not start a second turn and
// pay for it twice. The first request under a key reserves it (per user) with the conversation
// and the clientMessageId it sends; a repeat within the window sends that same message again,
// which the conversation acknowledges without storing it twice and answers with the first
// message's turn: replayed when it has ended, followed live while it runs. Another request under
// a key already used is refused with 409.
import { and, eq, gte, lt } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import type { Db } from "../../../../shared/db/client";
import { idempotencyKeys } from "../../../../shared/db/schema";
import { ApiError } from "../http/errors";
import { DO_NOT_RETRY } from "./turn-failures";

export const IDEMPOTENCY_HEADER = "idempotency-key";

/** How long a key holds: a day, far longer than any client's retries. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const IdempotencyKey = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .regex(/^[\x20-\x7e]+$/, "must be printable ASCII");

export interface KeyedRequest {
  userId: string;
  key: string;
  /** What the request asked, hashed: the same key with another request is refused. */
  fingerprint: string;
}

/** What the first request under a key sent, and when. */
export interface Reservation {
  conversationId: string;
  clientMessageId: string;
  createdAt: number;
}

/** The header's key, or undefined without one; a malformed key is a 400 saying what is wrong. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = IdempotencyKey.safeParse(header);
  if (key.success) return key.data;
  throw new ApiError(
    400,
    "validation_failed",
    `Idempotency-Key ${key.error.issues[0]?.message ?? "is invalid"}: send a unique string (a UUID, say) per request, the same one when you resend it.`,
    [{ path: "Idempotency-Key", message: key.error.issues[0]?.message ?? "invalid" }],
  );
}

/** SHA-256 (hex) of the parts that make a request what it is. */
export async function fingerprintOf(parts: readonly string[]): Promise<string> {
  const bytes = new TextEncoder().encode(parts.join("\n"));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The earlier request under this key within the window, or null; 409 when it asked otherwise. */
export async function earlierRequest(
  db: Db,
  request: KeyedRequest,
  now = Date.now(),
): Promise<Reservation | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, request.userId),
        eq(idempotencyKeys.key, request.key),
        gte(idempotencyKeys.createdAt, now - IDEMPOTENCY_WINDOW_MS),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (row.fingerprint !== request.fingerprint)
    throw new ApiError(
      409,
      "conflict",
      `Idempotency-Key '${request.key}' was already used at ${new Date(row.createdAt).toISOString()} for another request (another route, conversation or body). Resend that request exactly to get its answer, or use a new key for a new request.`,
      undefined,
      // The SDKs retry a 409 unless told not to; the same request would meet the same refusal.
      DO_NOT_RETRY,
    );
  return {
    conversationId: row.conversationId,
    clientMessageId: row.clientMessageId,
    createdAt: row.createdAt,
  };
}

/**
 * Reserves the key for `reservation`, in one batch with `before` (the new conversation the
 * message goes to, when the request named none): if another request took the key meanwhile,
 * nothing is created and that request's reservation is returned instead. The user's keys past
 * the window are dropped on the way.
 */
export async function reserve(
  db: Db,
  request: KeyedRequest,
  reservation: Reservation,
  before: BatchItem<"sqlite">[] = [],
): Promise<{ reservation: Reservation; fresh: boolean }> {
  try {
    await db.batch([
      db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.userId, request.userId),
            lt(idempotencyKeys.createdAt, reservation.createdAt - IDEMPOTENCY_WINDOW_MS),
          ),
        ),
      ...before,
      db.insert(idempotencyKeys).values({
        userId: request.userId,
        key: request.key,
        fingerprint: request.fingerprint,
        ...reservation,
      }),
    ]);
    return { reservation, fresh: true };
  } catch (err) {
    // Taken by a request that came in at the same moment: join it.
    const earlier = await earlierRequest(db, request, reservation.createdAt);
    if (earlier) return { reservation: earlier, fresh: false };
    throw err;
  }
}
