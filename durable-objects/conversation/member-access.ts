// Roles on a conversation's sockets and streams. The API worker checks the role before it hands
// a socket or stream over, and tells the object its role in ROLE_HEADER. Every frame that writes
// re-reads the role from D1 (a member removed or made a viewer is refused at once, even if the
// worker's notice was lost), and `applyAccessChange` (called by the worker when the owner
// changes someone's access, or by member-recheck.ts when a re-read finds a change the worker's
// call did not bring) updates the open sockets, or closes them for a removed member.
import type { Connection } from "agents";
import {
  ConversationRole,
  refusalFor,
  roleAllows,
  type ConversationRole as Role,
} from "../protocol/roles";
import type { ClientFrame, ErrorInfo } from "../protocol/wire";
import {
  CLOSE_ACCESS_REVOKED,
  CLOSE_REASON_ACCESS_REVOKED,
  CLOSE_REASON_LEFT,
} from "../protocol/close-codes";
import { accessInConversation, type MemberAccess } from "../../shared/db/conversation-access";
import { type MemberSocketState, stateOf } from "./presence";
import type { SseSubscriber } from "./sse";

export const ROLE_HEADER = "x-thinking-chat-role";
export { CLOSE_ACCESS_REVOKED };
export const ACCESS_REVOKED_COMMENT =
  "access revoked: the owner no longer shares this conversation with you";
/** The last line of a stream whose user left the conversation (in another tab, say). */
export const LEFT_COMMENT = "left: you left this conversation; nothing more will come";
/** The last line of an event stream whose conversation was deleted while it was open. */
export const DELETED_COMMENT =
  "deleted: the owner deleted this conversation; nothing more will come";

/** The role the worker checked, or null when the header is missing or malformed. */
export function roleFromHeader(headers: Headers): Role | null {
  const parsed = ConversationRole.safeParse(headers.get(ROLE_HEADER));
  return parsed.success ? parsed.data : null;
}

/** Frames that change the conversation: a viewer may not send them. */
const WRITING_FRAMES = new Set<ClientFrame["type"]>(["send", "cancel", "approval", "elicitation"]);
/** Frames only the owner may send: a branch is a new conversation of the owner's. */
const MANAGING_FRAMES = new Set<ClientFrame["type"]>(["branch"]);

export type FrameAccess = { ok: true; role: Role } | { ok: false; error: ErrorInfo };

/**
 * Whether the socket may send this frame now. A user who lost the conversation has their socket
 * closed (saying whether they left or were removed); a viewer gets a `forbidden` frame_error
 * that says why. `accessRead`: the user's access, when its read went out already (as a new
 * message arrived).
 */
export async function frameAccess(
  db: D1Database,
  conversationId: string,
  connection: Connection,
  frame: ClientFrame,
  accessRead?: Promise<MemberAccess>,
): Promise<FrameAccess> {
  const state = stateOf(connection);
  const userId = state?.credential?.userId;
  const known = state?.role;
  if (!userId || !known) return { ok: false, error: revokedError };
  const right = MANAGING_FRAMES.has(frame.type)
    ? "manage"
    : WRITING_FRAMES.has(frame.type)
      ? "write"
      : "read";
  if (right === "read") return { ok: true, role: known };
  const { role, left } = await (accessRead ?? accessInConversation(db, conversationId, userId));
  if (!role) {
    closeRevoked(connection, left);
    return { ok: false, error: revokedError };
  }
  if (role !== known)
    connection.setState((s: MemberSocketState | null) => ({
      ...s,
      synced: s?.synced ?? false,
      role,
    }));
  if (!roleAllows(role, right))
    return { ok: false, error: { code: "forbidden", message: refusalFor(role, right) } };
  return { ok: true, role };
}

const revokedError: ErrorInfo = {
  code: "forbidden",
  message: "You no longer have access to this conversation.",
};

/**
 * The owner changed a user's access: their sockets take the new role, or (removed, or `left` of
 * their own accord) close with CLOSE_ACCESS_REVOKED and a reason saying which, and their event
 * streams end. Returns whether any socket changed.
 */
export function applyAccessChange(
  connections: Iterable<Connection>,
  streams: Set<SseSubscriber>,
  userId: string,
  role: Role | null,
  left = false,
): boolean {
  let changed = false;
  for (const connection of connections) {
    if (stateOf(connection)?.credential?.userId !== userId) continue;
    changed = true;
    if (role === null) closeRevoked(connection, left);
    else
      connection.setState((s: MemberSocketState | null) => ({
        ...s,
        synced: s?.synced ?? false,
        role,
        // Made a viewer mid-sentence: what they typed can no longer be sent.
        ...(role === "viewer" && { typing: false }),
      }));
  }
  for (const stream of streams) {
    if (stream.credential.userId !== userId) continue;
    if (role !== null) {
      // Made a viewer (or a participant again): usage follows the role from the next event.
      stream.role = role;
      continue;
    }
    stream.close(left ? LEFT_COMMENT : ACCESS_REVOKED_COMMENT);
    streams.delete(stream);
  }
  return changed;
}

function closeRevoked(connection: Connection, left: boolean): void {
  try {
    connection.close(CLOSE_ACCESS_REVOKED, left ? CLOSE_REASON_LEFT : CLOSE_REASON_ACCESS_REVOKED);
  } catch {
    // Already closing.
  }
}
