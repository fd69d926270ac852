// The Server-Sent Events side of the contract: every event goes out as `id: <seq>`, and a client
// resumes with that id (the `Last-Event-ID` header, or `?after=`) to get everything after it.
import { z } from "zod";
import { SendMessage } from "./wire";

/**
 * The body of POST /chat: a WebSocket `send` frame without its type. Strict, like every other
 * JSON body of the API: a misspelt field is an error, not silently ignored.
 */
export const ChatRequest = SendMessage.omit({ type: true }).strict();

export const LastEventId = z
  .string()
  .regex(
    /^\d{1,15}$/,
    "expected the id of an event you received (a whole number; 0 = from the start)",
  )
  .transform(Number);

/**
 * `?compact=1`: leave out the text and reasoning deltas of finished answers (each answer's
 * message_completed carries its whole content); the same transcript from far fewer events.
 */
export const CompactReplay = QueryFlag("compact");

/** A yes/no query parameter: `name=1`, `name=0` or absent (no). */
export function QueryFlag(name: string) {
  return z
    .enum(["0", "1"], { error: `expected ${name}=1 (or 0)` })
    .optional()
    .transform((v) => v === "1");
}
