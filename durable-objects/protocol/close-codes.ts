// WebSocket close codes of ours that a client acts on (the others are in the objects that close
// with them: 4401 in socket-gate.ts, 4403 in member-access.ts).

/** The conversation is gone (deleted), or is not the caller's to see: reconnecting cannot help. */
export const CLOSE_CONVERSATION_GONE = 4404;

/**
 * A socket opened with `?new=1` could not create its conversation (over the limit, a bad query,
 * an unknown template): the `frame_error` sent just before says why.
 */
export const CLOSE_CREATE_REFUSED = 4400;
