// The live side of a conversation: WebSocket upgrades and Server-Sent Events, handed to its DO.
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { LastEventId } from "../../../../durable-objects/protocol/sse";
import { SendMessage } from "../../../../durable-objects/protocol/wire";
import type { AppEnv } from "../app-types";
import { requireUser } from "../auth/middleware";
import { isAllowedOrigin } from "../auth/origin";
import {
  createTicket,
  readSession,
  readTicket,
  SESSION_COOKIE,
  TICKET_TTL_MS,
} from "../auth/session";
import { userById, userForToken } from "../auth/users";
import { conversationStub } from "../conversation-lifecycle";
import { getOwnedConversation } from "../db/conversations";
import { ApiError } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { IdParam } from "./conversations";

const ChatBody = SendMessage.omit({ type: true });

export const realtimeRoutes = new Hono<AppEnv>()
  // The WebSocket authenticates itself at the handshake: browsers cannot set headers on it.
  .get("/:id/ws", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new ApiError(
        426 as 400,
        "bad_request",
        "This endpoint only accepts WebSocket upgrades.",
      );
    }
    const id = parseParam(c, "id", IdParam);
    const origin = c.req.header("origin");
    if (origin && !isAllowedOrigin(c.env, c.req.url, origin)) {
      throw new ApiError(403, "forbidden_origin", `Origin ${origin} may not open this WebSocket.`);
    }
    const db = c.get("db");
    const ticket = c.req.query("ticket");
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const cookie = getCookie(c, SESSION_COOKIE);
    const uid = ticket
      ? await readTicket(c.env, ticket, id)
      : bearer
        ? ((await userForToken(db, bearer))?.id ?? null)
        : cookie
          ? await readSession(c.env, cookie)
          : null;
    const user = uid ? await userById(db, uid) : null;
    if (!user)
      throw new ApiError(
        401,
        "unauthorized",
        "Sign in, or get a ticket from POST /api/conversations/:id/ws-ticket.",
      );
    await getOwnedConversation(db, user.id, id);
    const stub = await conversationStub(c.env, id);
    return stub.fetch(c.req.raw);
  })
  .post("/:id/ws-ticket", requireUser, async (c) => {
    const id = parseParam(c, "id", IdParam);
    await getOwnedConversation(c.get("db"), c.get("user").id, id);
    const expiresAt = Date.now() + TICKET_TTL_MS;
    return c.json({ ticket: await createTicket(c.env, c.get("user").id, id), expiresAt });
  })
  // Server-Sent Events (the contract is in durable-objects/conversation/sse-requests.ts).
  .post("/:id/chat", requireUser, async (c) => {
    const id = parseParam(c, "id", IdParam);
    const after = resumeCursor(c);
    const body = await parseJsonBody(c, ChatBody);
    await getOwnedConversation(c.get("db"), c.get("user").id, id);
    const stub = await conversationStub(c.env, id);
    const headers = new Headers({ "content-type": "application/json" });
    if (after !== undefined) headers.set("last-event-id", String(after));
    return stub.fetch(
      new Request(new URL(`/chat`, c.req.url), {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      }),
    );
  })
  .get("/:id/events", requireUser, async (c) => {
    const id = parseParam(c, "id", IdParam);
    const after = resumeCursor(c);
    await getOwnedConversation(c.get("db"), c.get("user").id, id);
    const stub = await conversationStub(c.env, id);
    const url = new URL(`/events`, c.req.url);
    if (after !== undefined) url.searchParams.set("after", String(after));
    return stub.fetch(new Request(url));
  });

/** Where a stream resumes: the `Last-Event-ID` header (what EventSource resends) over `?after=`. */
function resumeCursor(c: Context<AppEnv>): number | undefined {
  const header = c.req.header("last-event-id");
  const raw = header ?? c.req.query("after");
  if (raw === undefined) return undefined;
  const parsed = LastEventId.safeParse(raw);
  if (parsed.success) return parsed.data;
  const where = header !== undefined ? "The Last-Event-ID header" : "The query parameter 'after'";
  throw new ApiError(
    400,
    "validation_failed",
    `${where} must be the id of an event you received (a whole number, 0 for the start), not '${raw.slice(0, 40)}'.`,
  );
}
