// Text and reasoning deltas of an answer, merged into fewer events. A model streams a few
// characters at a time; storing and sending each as its own event cost a SQL write and a frame
// per token, and made every client that catches up read them all again. An answer's first delta,
// and the first after a quiet spell, go out at once (no added latency to the first token); the
// ones that follow within COALESCE_MS are held and go out as one event, as does anything reaching
// COALESCE_MAX_CHARS.
// Any other event first flushes what is held, so the log keeps the order the loop emitted in and
// the folded transcript is the same as with one event per delta.
import type { NewServerEvent, ServerEvent } from "../protocol/wire";

/**
 * How long deltas are gathered after one was sent: at most 20 updates a second, smooth to read.
 * Each event is a commit of the object's SQLite (an fsync, on the thread every object shares
 * under `wrangler dev`); at 16 ms a crowd of new conversations stored 11–14 events per answer, at
 * 50 ms 2–4, and the extra commits slowed every stream, which then merged even less.
 */
export const COALESCE_MS = 50;
/** A held run of deltas longer than this goes out at once. */
export const COALESCE_MAX_CHARS = 4096;

type Delta = Extract<NewServerEvent, { type: "text_delta" | "reasoning_delta" }>;

export const isDelta = (e: NewServerEvent): e is Delta =>
  e.type === "text_delta" || e.type === "reasoning_delta";

export class DeltaCoalescer {
  #held: Delta | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Until when a new delta is held rather than sent (the window opened by the last send). */
  #holdUntil = 0;
  /**
   * The answer whose deltas went out last: another answer's first delta is never held. What is
   * held always belongs to it (a delta of another answer flushes the held run first).
   */
  #lastMessageId: string | null = null;

  constructor(
    /** Stores an event in the log and sends it to live clients. */
    private readonly write: (event: NewServerEvent) => ServerEvent,
    private readonly windowMs = COALESCE_MS,
    private readonly maxChars = COALESCE_MAX_CHARS,
  ) {}

  /** Takes a delta: sends it now, or holds it to merge with the next ones. */
  add(delta: Delta, now = Date.now()): void {
    const held = this.#held;
    if (held && (held.type !== delta.type || held.messageId !== delta.messageId)) this.flush();
    if (!this.#held && (now >= this.#holdUntil || delta.messageId !== this.#lastMessageId)) {
      this.#lastMessageId = delta.messageId;
      this.write(delta);
      this.#holdUntil = now + this.windowMs;
      return;
    }
    this.#held = this.#held ? { ...this.#held, delta: this.#held.delta + delta.delta } : delta;
    if (this.#held.delta.length >= this.maxChars) return this.flush();
    this.#timer ??= setTimeout(() => this.flush(), Math.max(0, this.#holdUntil - now));
  }

  /** Sends what is held, if anything. Called before any other event and before reading the log. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#held;
    if (!held) return;
    this.#held = null;
    this.write(held);
    this.#holdUntil = Date.now() + this.windowMs;
  }
}
