// What a new message sent over a WebSocket waits for before it is stored: the sender's daily
// allowance, the owner's (for a participant's message), the per-user message limit and the
// sender's name. They do not depend on each other, so they go out together as the frame arrives,
// beside the re-check of the socket's credential and the frame's access check, instead of one
// round trip after another. A message the sender may not send is still refused, with the same
// error as before: the allowance's, then the limit's, then the owner's. (Going out together, a
// message refused for the allowance, or on a socket whose credential was just revoked, also
// counts against the sender's message limit; it is refused either way.)
import type { Env } from "../../shared/env";
import type { ChatMessage } from "../protocol/messages";
import type { ErrorInfo } from "../protocol/wire";
import { overDailyAllowance } from "./daily-allowance";
import { overMessageLimit } from "./message-limit";
import { ownerOverAllowance } from "./owner-allowance";

export type SendChecks = { refused: ErrorInfo } | { refused: null; author: ChatMessage["author"] };

export interface SendCheckInput {
  env: Env;
  senderId: string;
  /** The socket's role says the sender owns the conversation: the owner's check is the sender's. */
  senderOwns: boolean;
  ownerId: () => Promise<string>;
  /** The sender's name for the message (shown to everyone the conversation is shared with). */
  authorOf: (userId: string) => Promise<ChatMessage["author"]>;
}

export async function checkSend(input: SendCheckInput): Promise<SendChecks> {
  const { env, senderId } = input;
  const [allowance, limited, owner, author] = await Promise.all([
    overDailyAllowance(env, senderId),
    overMessageLimit(env, senderId),
    input.senderOwns ? null : ownerOverAllowance(env, input.ownerId, senderId),
    input.authorOf(senderId),
  ]);
  const refused = allowance?.error ?? limited ?? owner?.error ?? null;
  return refused ? { refused } : { refused: null, author };
}

/** The error for a clientMessageId already used for a message with other text. */
export const reusedClientMessageId = (clientMessageId: string): ErrorInfo => ({
  code: "conflict",
  message:
    `The clientMessageId '${clientMessageId.slice(0, 100)}' is already used for another message. ` +
    "A resend must repeat its message's text exactly; a new message needs a new clientMessageId.",
});
