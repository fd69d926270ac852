// Collects what arrives between two frames and hands it on in one go. A socket catching up
// delivers thousands of events in a burst; folding and drawing each burst on its own kept the
// page busy for seconds (10,000 messages took over 20 s to show), while a catch-up held until it
// is complete is folded once and drawn once.

/** A hidden tab gets no animation frames: it is handed what came in after this long instead. */
const HIDDEN_TAB_DELAY_MS = 50;

export class FrameBatch<T> {
  private items: T[] = [];
  private frame: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * While set, what comes in is handed on this many milliseconds after the first of it (or when
   * flushed) instead of on the next frame: a long catch-up still shows how far it has got.
   */
  holdMs: number | null = null;

  constructor(private readonly deliver: (items: T[]) => void) {}

  add(item: T): void {
    this.items.push(item);
    if (this.items.length > 1) return;
    if (this.holdMs !== null) {
      this.timer = setTimeout(() => this.flush(), this.holdMs);
      return;
    }
    if (typeof requestAnimationFrame === "function")
      this.frame = requestAnimationFrame(() => this.flush());
    this.timer = setTimeout(() => this.flush(), HIDDEN_TAB_DELAY_MS);
  }

  /** Hands on what has come in now (before something that must come after it). */
  flush(): void {
    this.cancel();
    const items = this.items;
    this.items = [];
    if (items.length > 0) this.deliver(items);
  }

  /** Forgets what has come in and not been handed on. */
  drop(): void {
    this.cancel();
    this.items = [];
  }

  private cancel(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = undefined;
    this.timer = undefined;
  }
}
