// Who has a conversation open, and who is typing, from its live sockets. Each socket carries its
// person (id, name, role) in its state, so presence survives the object hibernating. Only the
// sockets that asked for it on resume receive `presence` frames; every synced socket counts.
import type { Connection } from "agents";
import type { ConversationRole } from "../protocol/roles";
import type { PresencePerson, ServerControl } from "../protocol/wire";
import type { SocketState } from "./socket-gate";

export interface MemberSocketState extends SocketState {
  /** The socket's role, set at the upgrade and updated when the owner changes it. */
  role?: ConversationRole;
  name?: string;
  typing?: boolean;
  /** The client asked for presence frames. */
  presence?: boolean;
}

/**
 * The user's name as the API worker read it with their credential (URI-encoded), so the object
 * need not read it again for presence; absent for a ticket's socket.
 */
export const NAME_HEADER = "x-thinking-chat-name";

export function nameFromHeader(headers: Headers): string | undefined {
  const raw = headers.get(NAME_HEADER);
  if (raw === null) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export const stateOf = (connection: Connection): MemberSocketState | null =>
  connection.state as MemberSocketState | null;

/** One entry per person (owner first); typing if any of their sockets types. */
export function peopleOf(connections: Iterable<Connection>, leaving?: string): PresencePerson[] {
  const people = new Map<string, PresencePerson>();
  for (const connection of connections) {
    if (connection.id === leaving) continue;
    const state = stateOf(connection);
    const userId = state?.credential?.userId;
    if (!state?.synced || !userId || !state.role) continue;
    const known = people.get(userId);
    people.set(userId, {
      userId,
      name: state.name ?? "",
      role: state.role,
      typing: (known?.typing ?? false) || state.typing === true,
    });
  }
  return [...people.values()].sort(
    (x, y) => RANK[x.role] - RANK[y.role] || x.name.localeCompare(y.name),
  );
}

/** The owner first, then participants, then viewers; by name within each. */
const RANK: Record<ConversationRole, number> = { owner: 0, participant: 1, viewer: 2 };

/** Sends every socket that asked for it who is here now, and its own identity and role. */
export function broadcastPresence(connections: () => Iterable<Connection>, leaving?: string): void {
  const people = peopleOf(connections(), leaving);
  for (const connection of connections()) {
    const state = stateOf(connection);
    if (connection.id === leaving || !state?.presence || !state.synced) continue;
    const userId = state.credential?.userId;
    if (!userId || !state.role) continue;
    const frame: ServerControl = { type: "presence", people, you: { userId, role: state.role } };
    try {
      connection.send(JSON.stringify(frame));
    } catch {
      // A closing socket: its own close updates everyone.
    }
  }
}
