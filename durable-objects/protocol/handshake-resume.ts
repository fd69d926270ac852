// A `resume` carried by the WebSocket's handshake: `?resume=<lastSeq>` (with `compact=1`,
// `batch=1`, `presence=1` as the frame's flags) has the conversation replay what follows
// `lastSeq` as soon as the socket opens, without waiting for the client's first frame. The
// handshake was just authenticated, so the replay needs no second check of the credential, and
// the client saves a round trip. Shared by the API worker (which refuses a malformed one) and
// the conversation's object (which serves it).
import { z } from "zod";
import type { ClientFrame } from "./wire";

const Flag = (name: string) =>
  z
    .enum(["0", "1"], { error: `expected ${name}=1 (or 0)` })
    .optional()
    .transform((v) => v === "1");

const HandshakeQuery = z.object({
  resume: z
    .string()
    .regex(/^\d{1,15}$/, "expected the seq of the last event you have (a whole number; 0 = all)")
    .transform(Number)
    .optional(),
  compact: Flag("compact"),
  batch: Flag("batch"),
  presence: Flag("presence"),
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
