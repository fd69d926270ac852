// The D1 reads of the turn a new message starts (turn-reads.ts). They go out when the send frame
// arrives, beside the sender's checks, so the turn does not wait a D1 round trip after the
// message is stored (behind the outbox's write of that message). An early read serves only the
// turn of the message it was made for, and only when that turn starts at once: a queued turn, a
// refused message or any other turn reads afresh.
import type { TurnReads } from "./turn-reads";

export class EarlyTurnReads {
  /** The read made for a message not yet stored, by its clientMessageId. */
  #pending: { clientMessageId: string; read: Promise<TurnReads> } | null = null;
  /** The read handed to the turn the message started. */
  #claimed: { turnId: string; read: Promise<TurnReads> } | null = null;

  constructor(private readonly load: () => Promise<TurnReads>) {}

  /** A new message arrived: its turn's read starts now (or went out in `read` already). */
  start(clientMessageId: string, read: Promise<TurnReads> = this.load()): void {
    // A failure is the turn's to report, when it takes the read; never an unhandled rejection.
    read.catch(() => undefined);
    this.#pending = { clientMessageId, read };
  }

  /** The message was stored and its turn starts now: the early read is that turn's. */
  claim(clientMessageId: string, turnId: string): void {
    const pending = this.#pending;
    this.#pending = null;
    this.#claimed =
      pending?.clientMessageId === clientMessageId ? { turnId, read: pending.read } : null;
  }

  /** The message was refused or its turn queued: its early read is of no use. */
  drop(): void {
    this.#pending = null;
  }

  /** This turn's reads: its early ones if it has them, otherwise reads now. */
  forTurn(turnId: string): Promise<TurnReads> {
    const claimed = this.#claimed;
    this.#claimed = null;
    return claimed?.turnId === turnId ? claimed.read : this.load();
  }
}
