// What a new conversation's first socket needs, handed out with the conversation itself: a ticket
// (the client's next request is the upgrade, not a request for a ticket), and the object started
// while the answer travels back, so the upgrade finds it running instead of waiting for its
// start-up.
import type { Context } from "hono";
import type { SocketTicket } from "../../../../durable-objects/protocol/rest";
import type { AppEnv } from "../app-types";
import { createTicket } from "../auth/tickets";
import { liveCredentialOf } from "../auth/websocket-auth";
import { conversationStub } from "../conversation-lifecycle";
import { besideRequest } from "../http/beside-request";

export async function firstSocketOf(
  c: Context<AppEnv>,
  conversationId: string,
): Promise<SocketTicket> {
  besideRequest(c)(
    // A start that fails here is tried again by the upgrade, which reports it.
    conversationStub(c.env, conversationId).then(
      () => undefined,
      (err: unknown) => console.warn("could not start a new conversation's object early", err),
    ),
  );
  return createTicket(c.env, c.req.url, liveCredentialOf(c.get("credential")), conversationId);
}
