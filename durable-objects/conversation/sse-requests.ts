// The two Server-Sent Events requests the API worker forwards to a conversation, and when each
// ends (workers/api/README.md documents the same contract for users):
// - POST /chat stores the message (once per clientMessageId), replays from just before it (or
//   after Last-Event-ID) and ends after that message's turn has ended.
// - GET /events replays everything after Last-Event-ID (or ?after=, or from the start), then
//   follows live events while a turn runs or waits, and ends once the conversation is idle.
import { z } from "zod";
import { ChatRequest, CompactReplay, LastEventId } from "../protocol/sse";
import {
  type ErrorInfo,
  type SendMessage as SendMessageFrame,
  type ServerControl,
  type ServerEvent,
} from "../protocol/wire";
import { type ConversationRole, seesUsage } from "../protocol/roles";
import { roleFromHeader } from "./member-access";
import { resumePastEnd } from "./resume-point";
import { credentialFromHeader } from "./socket-credential";
import { openSseStream, type SseEnd, type SseLog, type SseSubscriber } from "./sse";
import type { SseGate } from "./sse-gate";
import type { ConversationStore, TurnRow } from "./store";

export interface SseHost {
  store: ConversationStore;
  /** Live streams; the conversation pushes each new event to them. */
  subscribers: Set<SseSubscriber>;
  /** Ends the streams whose credential was revoked. */
  gate: SseGate;
  /** Stores the message, or refuses it (an attachment that is not this conversation's). */
  acceptMessage(
    frame: SendMessageFrame,
  ): Promise<Extract<ServerControl, { type: "ack" }> | { error: ErrorInfo }>;
}

export async function serveSseRequest(request: Request, host: SseHost): Promise<Response> {
  const url = new URL(request.url);
  // The API worker says who opened the stream; it is re-checked while the stream lasts.
  const credential = credentialFromHeader(request.headers);
  if (!credential)
    return refuse(401, "unauthorized", "A stream must be opened through the API worker.");
  const cursor = LastEventId.optional().safeParse(
    request.headers.get("last-event-id") ?? url.searchParams.get("after") ?? undefined,
  );
  if (!cursor.success)
    return refuse(
      400,
      "validation_failed",
      `Last-Event-ID (or ?after=): ${cursor.error.issues[0]?.message}.`,
    );
  const pastEnd = resumePastEnd(
    { name: "Last-Event-ID (or ?after=)", seq: cursor.data, afresh: "leave it out" },
    host.store.lastSeq(),
  );
  if (pastEnd) return refuse(400, pastEnd.code, pastEnd.message);
  const compact = CompactReplay.safeParse(url.searchParams.get("compact") ?? undefined);
  if (!compact.success)
    return refuse(400, "validation_failed", `compact: ${compact.error.issues[0]?.message}.`);
  // POST /chat needs the right to write; a GET /events without a role the worker checked is
  // taken as a viewer's, so usage never reaches a stream that may not see it.
  const checked = roleFromHeader(request.headers);
  const role: ConversationRole =
    request.method === "POST" && !(checked && seesUsage(checked))
      ? "participant"
      : (checked ?? "viewer");
  const log: SseLog = {
    // Our own log, written by this object: sent as stored, without validating each event again.
    eventsAfter: (seq, limit, hidesUsage) =>
      host.store
        .replayAfter(seq, limit, compact.data, hidesUsage)
        .map((r) => JSON.parse(r.body) as ServerEvent),
    follow: (s) => host.subscribers.add(s),
    unfollow: (s) => host.subscribers.delete(s),
    keptAlive: () => host.gate.revalidateIfDue(),
  };

  if (request.method === "POST" && url.pathname.endsWith("/chat")) {
    const body = ChatRequest.safeParse(await request.json().catch(() => null));
    if (!body.success)
      return refuse(400, "validation_failed", `Invalid message: ${z.prettifyError(body.error)}`);
    const ack = await host.acceptMessage({ type: "send", ...body.data });
    if ("error" in ack)
      return refuse(ack.error.code === "conflict" ? 409 : 400, ack.error.code, ack.error.message);
    const turn = host.store.turnForUserMessage(ack.messageId);
    if (!turn) return refuse(500, "internal", "The message was stored but its turn is missing.");
    return openSseStream(
      log,
      cursor.data ?? turn.startSeq - 1,
      untilTurnEnds(host.store, turn),
      credential,
      role,
    );
  }
  if (request.method === "GET" && url.pathname.endsWith("/events")) {
    return openSseStream(log, cursor.data ?? 0, untilIdle(host.store), credential, role);
  }
  return refuse(404, "not_found", `No ${request.method} ${url.pathname} on a conversation.`);
}

const isTurnEnd = (e: ServerEvent): e is Extract<ServerEvent, { turnId: string }> =>
  e.type === "turn_ended" || e.type === "turn_failed";

/** Ends with the turn's own end event, replayed or live; at once if a resume started past it. */
function untilTurnEnds(store: ConversationStore, turn: TurnRow): SseEnd {
  return {
    after: (e) => isTurnEnd(e) && e.turnId === turn.id,
    whenCaughtUp: () => store.turnForUserMessage(turn.userMessageId)?.status === "done",
  };
}

/**
 * Ends when no turn runs or waits. A turn end in the backlog never ends the stream (later turns
 * may follow it in the log); a live one does when nothing is queued behind it. The ending turn
 * may still be marked running while its end event goes out, so it does not count as busy.
 */
function untilIdle(store: ConversationStore): SseEnd {
  const idleBesides = (turnId?: string) => {
    const running = store.runningTurn();
    return store.queuedCount() === 0 && (running === null || running.id === turnId);
  };
  return {
    after: (e, live) => live && isTurnEnd(e) && idleBesides(e.turnId),
    whenCaughtUp: () => idleBesides(),
  };
}

const refuse = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });
