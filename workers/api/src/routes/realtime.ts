// The live side of a conversation: WebSocket upgrades and Server-Sent Events, handed to its DO.
import { type Context, Hono } from "hono";
import { SOCKET_CREDENTIAL_HEADER } from "../../../../durable-objects/conversation/socket-credential";
import { z } from "zod";
import { ChatRequest, CompactReplay, LastEventId } from "../../../../durable-objects/protocol/sse";
import type { AppEnv } from "../app-types";
import { requireUser } from "../auth/middleware";
import { isAllowedOrigin } from "../auth/origin";
import { createTicket } from "../auth/tickets";
import { authenticateUpgrade, liveCredentialOf, upgradeForObject } from "../auth/websocket-auth";
import { conversationFetchStub, conversationStub } from "../conversation-lifecycle";
import {
  HandshakeQuery,
  handshakeResume,
} from "../../../../durable-objects/protocol/handshake-resume";
import { conversationFor, FormerMemberError } from "../db/conversation-access";
import { departedSocket } from "./departed-socket";
import { ROLE_HEADER } from "../../../../durable-objects/conversation/member-access";
import { ApiError } from "../http/errors";
import { holderRole, type HolderRole } from "../auth/holder-role";
import type { ConversationRole } from "../../../../durable-objects/protocol/sharing";
import { parseJsonBody, parseParam } from "../http/validate";
import { documentedQuery, validHeaders, validQuery } from "../http/validated";
import { RATE_LIMITS } from "../../../../shared/rate-limit/limits";
import { byUser, rateLimit } from "../rate-limit/middleware";
import { IdParam } from "./conversations";
import {
  asksForNewConversation,
  NewSocketQuery,
  openNewConversation,
  refusedCreation,
} from "./new-conversation-socket";

// Where a stream resumes: after the id in `Last-Event-ID` (what EventSource resends), else `?after=`.
const ResumeHeader = z.object({
  "last-event-id": LastEventId.optional().describe(
    "The id of the last event you received; the stream starts after it (over `after`).",
  ),
});
const ResumeQuery = z.object({
  after: LastEventId.optional().describe("As Last-Event-ID, for clients that cannot set it."),
});
const EventsQuery = ResumeQuery.extend({ compact: CompactReplay });

// All the socket's URL may carry: the handshake's resume (checked here, served by the object),
// the ticket (auth/websocket-auth.ts) and a new conversation's choices (new-conversation-socket.ts).
// The route parses each part where it is used; this is what the document lists.
const SocketQuery = HandshakeQuery.extend(NewSocketQuery.partial({ new: true }).shape);

export const realtimeRoutes = new Hono<AppEnv>()
  // The WebSocket authenticates itself at the handshake: browsers cannot set headers on it.
  .get("/:id/ws", documentedQuery(SocketQuery), async (c) => {
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
    // A resume in the handshake (handshake-resume.ts) is served as the socket opens.
    const asked = handshakeResume(new URL(c.req.url));
    if (!asked.ok) throw new ApiError(400, "validation_failed", asked.message);
    const creates = asksForNewConversation(c);
    // The caller's role is read beside the check of their credential, not after it.
    const early = creates || c.req.query("ticket") ? null : holderRole(c, id).catch(() => null);
    const auth = await authenticateUpgrade(c, id);
    const { credential, ticket } = auth;
    // One who left or was removed is told which, not refused as a stranger would be.
    const role = creates
      ? await openNewConversation(c, id, { id: credential.userId, name: auth.name }).catch(
          (err: unknown) => {
            if (err instanceof FormerMemberError) return departedSocket(err.reason);
            if (err instanceof ApiError) return refusedCreation(err);
            throw err;
          },
        )
      : await readerRole(c, credential.userId, id, early).catch((err: unknown) => {
          if (err instanceof FormerMemberError) return departedSocket(err.reason);
          throw err;
        });
    if (role instanceof Response) return role;
    // A ticket is claimed by RPC, which needs the object started; the upgrade alone starts it.
    const stub = ticket ? await conversationStub(c.env, id) : conversationFetchStub(c.env, id);
    if (ticket && !(await stub.claimTicket(ticket.id, ticket.expiresAt)))
      throw new ApiError(
        401,
        "unauthorized",
        "This ticket was already used. Get a new one from POST /api/conversations/:id/ws-ticket for each connection.",
      );
    const upgrade = upgradeForObject(c.req.raw, auth);
    upgrade.headers.set(ROLE_HEADER, role);
    return stub.fetch(upgrade);
  })
  .post(
    "/:id/ws-ticket",
    requireUser,
    rateLimit({ ...RATE_LIMITS.wsTicket, key: byUser }),
    async (c) => {
      const id = parseParam(c, "id", IdParam);
      await conversationFor(c.get("db"), c.get("user").id, id, "read");
      return c.json(
        await createTicket(c.env, c.req.url, liveCredentialOf(c.get("credential")), id),
      );
    },
  )
  // Server-Sent Events (the contract is in durable-objects/conversation/sse-requests.ts).
  .post(
    "/:id/chat",
    requireUser,
    rateLimit({ ...RATE_LIMITS.message, key: byUser }),
    validHeaders(ResumeHeader),
    validQuery(ResumeQuery),
    async (c) => {
      const id = parseParam(c, "id", IdParam);
      const after = c.req.valid("header")["last-event-id"] ?? c.req.valid("query").after;
      const body = await parseJsonBody(c, ChatRequest);
      await conversationFor(c.get("db"), c.get("user").id, id, "write");
      const stub = conversationFetchStub(c.env, id);
      const headers = new Headers({ "content-type": "application/json" });
      headers.set(SOCKET_CREDENTIAL_HEADER, JSON.stringify(liveCredentialOf(c.get("credential"))));
      if (after !== undefined) headers.set("last-event-id", String(after));
      return stub.fetch(
        new Request(new URL(`/chat`, c.req.url), {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        }),
      );
    },
  )
  .get(
    "/:id/events",
    requireUser,
    validHeaders(ResumeHeader),
    validQuery(EventsQuery),
    async (c) => {
      const id = parseParam(c, "id", IdParam);
      const query = c.req.valid("query");
      const after = c.req.valid("header")["last-event-id"] ?? query.after;
      const { role } = await conversationFor(c.get("db"), c.get("user").id, id, "read");
      const stub = conversationFetchStub(c.env, id);
      const url = new URL(`/events`, c.req.url);
      if (after !== undefined) url.searchParams.set("after", String(after));
      if (query.compact) url.searchParams.set("compact", "1");
      // Who opened the stream, so the object can end it once that credential is revoked.
      const credential = JSON.stringify(liveCredentialOf(c.get("credential")));
      // And their role: a viewer's stream leaves out usage (the owner's spending).
      return stub.fetch(
        new Request(url, {
          headers: { [SOCKET_CREDENTIAL_HEADER]: credential, [ROLE_HEADER]: role },
        }),
      );
    },
  );

/**
 * The user's role in the conversation (any role reads): as read early when it is theirs. Without
 * one, the full read says why: a stranger's 404, or a former member's FormerMemberError.
 */
async function readerRole(
  c: Context<AppEnv>,
  userId: string,
  id: string,
  early: Promise<HolderRole | null> | null,
): Promise<ConversationRole> {
  const held = await early;
  if (held?.userId === userId && held.role) return held.role;
  return (await conversationFor(c.get("db"), userId, id, "read")).role;
}
