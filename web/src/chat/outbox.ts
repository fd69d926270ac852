// Messages sent but not yet acknowledged, kept in localStorage per user and conversation, so one
// written offline survives a reload or a closed tab and goes once the conversation's socket is
// back (same clientMessageId: the server stores it once however often it arrives). The user's id
// is in the key: a message is never resent by another user signed in on this browser, and
// signing out erases the user's (the text of unsent messages is not left behind for the next).
import { z } from "zod";
import { SendMessage } from "../../../durable-objects/protocol/wire";
import { outboxKey } from "./outbox-keys";

export type OutboxStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** A send frame as kept, with the conversation it was written in. */
const StoredSend = z.object({ conversationId: z.string(), frame: SendMessage });
export type StoredSend = z.infer<typeof StoredSend>;
type SendFrame = StoredSend["frame"];

/** One user's unacknowledged sends in one conversation, oldest first. */
export class Outbox {
  readonly key: string;

  constructor(
    private readonly store: OutboxStore,
    userId: string,
    private readonly conversationId: string,
  ) {
    this.key = outboxKey(userId, conversationId);
  }

  /** The kept sends; a value that is not an outbox (an old format, a hand edit) holds none. */
  read(): SendFrame[] {
    let raw: string | null;
    try {
      raw = this.store.getItem(this.key);
    } catch {
      return [];
    }
    return parseOutbox(raw, this.conversationId);
  }

  /** Keeps a send; false when the store refused it (it then lasts as long as the page). */
  keep(frame: SendFrame): boolean {
    const sends = this.read().filter((f) => f.clientMessageId !== frame.clientMessageId);
    return this.write([...sends, frame]);
  }

  forget(clientMessageId: string): void {
    const sends = this.read();
    const rest = sends.filter((f) => f.clientMessageId !== clientMessageId);
    if (rest.length !== sends.length) this.write(rest);
  }

  clear(): void {
    this.write([]);
  }

  private write(sends: SendFrame[]): boolean {
    try {
      if (sends.length === 0) this.store.removeItem(this.key);
      else {
        const stored: StoredSend[] = sends.map((frame) => ({
          conversationId: this.conversationId,
          frame,
        }));
        this.store.setItem(this.key, JSON.stringify(stored));
      }
      return true;
    } catch {
      // Storage full or refused (private mode): the send is still resent while the page is open.
      return false;
    }
  }
}

/** The sends of a stored outbox value (the conversation's own only), or none. */
export function parseOutbox(raw: string | null, conversationId: string): SendFrame[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = z.array(StoredSend).safeParse(value);
  if (!parsed.success) return [];
  return parsed.data.filter((s) => s.conversationId === conversationId).map((s) => s.frame);
}
