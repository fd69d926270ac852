// Who opens a WebSocket: a single-use ticket, a bearer token or the session cookie. Browsers
// cannot set headers on the upgrade, so the handshake authenticates itself.
import type { Context } from "hono";
import {
  credentialIsLive,
  SOCKET_CREDENTIAL_HEADER,
  type SocketCredential,
} from "../../../../durable-objects/conversation/socket-credential";
import { NAME_HEADER } from "../../../../durable-objects/conversation/presence";
import type { AppEnv } from "../app-types";
import type { Credential } from "./session";
import { ApiError } from "../http/errors";
import { RATE_LIMITS } from "../../../../shared/rate-limit/limits";
import { byAddress, enforceRateLimit } from "../rate-limit/middleware";
import { credentialOf } from "./middleware";
import { readTicket, type Ticket } from "./tickets";

export interface UpgradeAuth {
  credential: SocketCredential;
  /** The user's name, read with a session or token (a ticket does not carry it). */
  name?: string;
  /** Set when a ticket was used: the conversation's object must accept its id only once. */
  ticket?: Ticket;
}

const unauthorized = () =>
  new ApiError(
    401,
    "unauthorized",
    "Sign in, or get a new ticket from POST /api/conversations/:id/ws-ticket (each ticket opens one socket, within 20 s).",
  );

export async function authenticateUpgrade(
  c: Context<AppEnv>,
  conversationId: string,
): Promise<UpgradeAuth> {
  const ticketText = c.req.query("ticket");
  if (ticketText) {
    const ticket = await readTicket(c.env, c.req.url, ticketText, conversationId);
    if (!ticket) throw unauthorized();
    const credential: SocketCredential = {
      userId: ticket.userId,
      tokenId: ticket.tokenId,
      ...(ticket.sessionId && { sessionId: ticket.sessionId }),
    };
    // The token or session behind the ticket must still be live when the ticket is used.
    if (!(await credentialIsLive(c.env.DB, credential))) throw unauthorized();
    return {
      credential,
      ticket,
    };
  }
  const credential = await credentialOf(c);
  if (credential === "bad_bearer") await enforceRateLimit(c, RATE_LIMITS.badBearer, byAddress);
  if (!credential || credential === "bad_bearer") throw unauthorized();
  return { credential: liveCredentialOf(credential), name: credential.user.name };
}

/** What a socket or stream carries to the conversation's object, to be re-checked there. */
export const liveCredentialOf = (credential: Credential): SocketCredential => ({
  userId: credential.user.id,
  tokenId: credential.tokenId,
  ...(credential.sessionId && { sessionId: credential.sessionId }),
});

/** `agents`' switch to its Cap'n Web transport, which this app does not offer (bundle-stubs/capnweb.ts). */
const AGENTS_TRANSPORT_PARAM = "__agents_transport";

/**
 * The upgrade request as the object sees it: with what we checked (and the name), nothing else,
 * and always on the app's own protocol over the hibernatable WebSocket.
 */
export function upgradeForObject(request: Request, auth: UpgradeAuth): Request {
  const url = new URL(request.url);
  url.searchParams.delete(AGENTS_TRANSPORT_PARAM);
  const forwarded = new Request(url, request);
  forwarded.headers.set(SOCKET_CREDENTIAL_HEADER, JSON.stringify(auth.credential));
  if (auth.name !== undefined) forwarded.headers.set(NAME_HEADER, encodeURIComponent(auth.name));
  else forwarded.headers.delete(NAME_HEADER);
  return forwarded;
}
