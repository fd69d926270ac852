// Stands in for `capnweb` in the API worker's bundle (wrangler.toml `alias`). `agents` loads it
// only for its Cap'n Web socket transport (`?__agents_transport=capnweb`), which this app does not
// offer: the API worker drops that parameter from every upgrade (auth/websocket-auth.ts), so each
// socket speaks the app's own protocol over the hibernatable WebSocket. 55 KiB of script less.
export function newWebSocketRpcSession(): never {
  throw new Error(
    "The Cap'n Web socket transport is not part of this app: capnweb is not bundled in the API worker (wrangler.toml alias).",
  );
}
