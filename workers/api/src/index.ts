// The API worker: REST, realtime (WebSocket, SSE) and the static web client, and the Durable
// Objects behind them. The routes (app.ts) load on the worker's first request: an isolate started
// for an object alone (a message on a hibernated socket, an alarm) never builds them, their
// schemas or the OpenAPI document.
import type { Env } from "../../../shared/env";
import type app from "./app";

export { Conversation } from "../../../durable-objects/conversation/conversation";
export { RateLimitCounter } from "../../../durable-objects/rate-limit/rate-limit-counter";

let routes: Promise<typeof app> | undefined;

export default {
  async fetch(request, env, ctx) {
    const loaded = await (routes ??= import("./app").then((m) => m.default));
    return loaded.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
