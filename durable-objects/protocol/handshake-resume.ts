// A `resume` carried by the WebSocket's handshake: `?resume=<lastSeq>` (with `compact=1`,
// `batch=1`, `presence=1` as the frame's flags) has the conversation replay what follows
// `lastSeq` as soon as the socket opens, without waiting for the client's first frame. The
// handshake was just authenticated, so the replay needs no second check of the credential, and
// the client saves a round trip. Shared by the API worker (which refuses a malformed one) and
// the conversation's object (which serves it).
import { z } from "zod";
import { CompactReplay, LastEventId, QueryFlag } from "./sse";
import type { ClientFrame } from "./wire";

// The same forms as an SSE stream's cursor and `?compact=` (sse.ts).
export const HandshakeQuery = z.object({
  resume: LastEventId.optional(),
  compact: CompactReplay,
  batch: QueryFlag("batch"),
  presence: QueryFlag("presence"),
});

export type HandshakeResume = Extract<ClientFrame, { type: "resume" }>;

/** The URL's resume, null when it asks for none, or what is wrong with it. */
export function handshakeResume(
  url: URL,
): { ok: true; resume: HandshakeResume | null } | { ok: false; message: string } {
  const q = url.searchParams;
  const parsed = HandshakeQuery.safeParse({
    resume: q.get("resume") ?? undefined,
    compact: q.get("compact") ?? undefined,
    batch: q.get("batch") ?? undefined,
    presence: q.get("presence") ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `The query parameter '${String(issue?.path[0])}' ${issue?.message}.`,
    };
  }
  const { resume, ...flags } = parsed.data;
  if (resume === undefined) return { ok: true, resume: null };
  return {
    ok: true,
    resume: {
      type: "resume",
      lastSeq: resume,
      ...(flags.compact && { compact: true }),
      ...(flags.batch && { batch: true }),
      ...(flags.presence && { presence: true }),
    },
  };
}

/** The query that asks for `frame` at the handshake (what a client appends to the socket URL). */
export function handshakeQuery(frame: Omit<HandshakeResume, "type">): string {
  const q = new URLSearchParams({ resume: String(frame.lastSeq) });
  if (frame.compact) q.set("compact", "1");
  if (frame.batch) q.set("batch", "1");
  if (frame.presence) q.set("presence", "1");
  return q.toString();
}
