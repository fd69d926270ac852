// WebSocket close codes of ours that a client acts on (4401 is in socket-gate.ts, which closes
// with it).

/** The conversation is gone (deleted), or is not the caller's to see: reconnecting cannot help. */
export const CLOSE_CONVERSATION_GONE = 4404;

/**
 * The user no longer has this shared conversation: its close reason says why, ACCESS_REVOKED
 * (the owner removed them) or LEFT (they left it, in this tab or another). Reconnecting cannot
 * help after either.
 */
export const CLOSE_ACCESS_REVOKED = 4403;
export const CLOSE_REASON_ACCESS_REVOKED = "access revoked";
export const CLOSE_REASON_LEFT = "left";

/**
 * A socket opened with `?new=1` could not create its conversation (over the limit, a bad query,
 * an unknown template): the `frame_error` sent just before says why.
 */
export const CLOSE_CREATE_REFUSED = 4400;
