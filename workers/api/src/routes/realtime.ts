// The live side of a conversation: WebSocket upgrades and Server-Sent Events, handed to its DO.
import { Hono } from "hono";
import { SendMessage } from "../../../../durable-objects/protocol/wire";
import type { AppEnv } from "../app-types";
import { requireUser } from "../auth/middleware";
import { isAllowedOrigin } from "../auth/origin";
import { createTicket } from "../auth/tickets";
import { authenticateUpgrade, upgradeForObject } from "../auth/websocket-auth";
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
    const { credential, ticket } = await authenticateUpgrade(c, id);
    await getOwnedConversation(c.get("db"), credential.userId, id);
    const stub = await conversationStub(c.env, id);
    if (ticket && !(await stub.claimTicket(ticket.id, ticket.expiresAt)))
      throw new ApiError(
        401,
        "unauthorized",
        "This ticket was already used. Get a new one from POST /api/conversations/:id/ws-ticket for each connection.",
      );
    return stub.fetch(upgradeForObject(c.req.raw, credential));
  })
  .post("/:id/ws-ticket", requireUser, async (c) => {
    const id = parseParam(c, "id", IdParam);
    await getOwnedConversation(c.get("db"), c.get("user").id, id);
    const { user, tokenId, sessionId } = c.get("credential");
    return c.json(
      await createTicket(
        c.env,
        c.req.url,
        { userId: user.id, tokenId, ...(sessionId && { sessionId }) },
        id,
      ),
    );
  })
  .post("/:id/chat", requireUser, async (c) => {
    const id = parseParam(c, "id", IdParam);
    const body = await parseJsonBody(c, ChatBody);
    await getOwnedConversation(c.get("db"), c.get("user").id, id);
    const stub = await conversationStub(c.env, id);
    const headers = new Headers({ "content-type": "application/json" });
    const lastEventId = c.req.header("last-event-id");
    if (lastEventId) headers.set("last-event-id", lastEventId);
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
    await getOwnedConversation(c.get("db"), c.get("user").id, id);
    const stub = await conversationStub(c.env, id);
    const url = new URL(`/events`, c.req.url);
    const after = c.req.header("last-event-id") ?? c.req.query("after");
    if (after !== undefined) url.searchParams.set("after", after);
    return mutable(await stub.fetch(new Request(url)));
  });

/** Responses from a DO stub have immutable headers; later middleware adds its own. */
const mutable = (res: Response) => new Response(res.body, res);
