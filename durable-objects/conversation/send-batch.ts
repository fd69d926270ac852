// Everything a new message over a WebSocket reads from D1 before its turn calls the model, as one
// batch: the socket's credential (still live?), the sender's role and name, and the context of
// the turn it starts (turn-reads.ts) when that turn will start at once. One round trip instead of
// four: D1 answers a database's queries one at a time, so separate reads wait for each other
// even when they go out together. Each part is answered as its own promise, used by the code
// that used to make the read (socket-gate.ts, member-access.ts, send-checks.ts).
import type { Env } from "../../shared/env";
import {
  accessFromRow,
  type MemberAccess,
  nameFromRow,
  roleStatement,
  userNameStatement,
} from "../../shared/db/conversation-access";
import { credentialStatement, type SocketCredential } from "./socket-credential";
import { type TurnReads, turnReadsFrom, turnReadStatements } from "./turn-reads";

export interface SendBatch {
  live: Promise<boolean>;
  access: Promise<MemberAccess>;
  name: Promise<string | null>;
  /** Only when asked for (the turn starts at once). */
  turn?: Promise<TurnReads>;
}

export function sendBatch(
  env: Env,
  conversationId: string,
  credential: SocketCredential,
  withTurn: boolean,
): SendBatch {
  const db = env.DB;
  const answers = db.batch([
    credentialStatement(db, credential),
    roleStatement(db, conversationId, credential.userId),
    userNameStatement(db, credential.userId),
    ...(withTurn ? turnReadStatements(db, conversationId) : []),
  ]);
  // A part nobody takes (a refused frame, a queued turn) must not fail as unhandled.
  const part = <T>(read: (results: D1Result[]) => T): Promise<T> => {
    const p = answers.then(read);
    p.catch(() => undefined);
    return p;
  };
  return {
    live: part((r) => (r[0]?.results.length ?? 0) > 0),
    access: part((r) => accessFromRow(r[1]?.results[0] ?? null)),
    name: part((r) => nameFromRow(r[2]?.results[0] ?? null)),
    ...(withTurn && { turn: part((r) => turnReadsFrom(env, r.slice(3))) }),
  };
}
