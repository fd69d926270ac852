// A read that serves whoever asks shortly after it was made. The conversation's row is read as a
// message arrives, at the same time as the message's checks, and the turn that message starts
// uses that read instead of waiting for a second one on its way to the model. A turn that starts
// later (queued behind another) reads again.
export class FreshRead<T> {
  #last: { at: number; value: Promise<T> } | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a new read now (the one `get` hands out for the next `windowMs`). */
  refresh(): Promise<T> {
    const value = this.load();
    const entry = { at: this.now(), value };
    this.#last = entry;
    // A failed read is never handed out again; its own caller sees the failure.
    value.catch(() => {
      if (this.#last === entry) this.#last = null;
    });
    return value;
  }

  /** The read made within the window, or a new one. */
  get(): Promise<T> {
    const last = this.#last;
    if (last && this.now() - last.at <= this.windowMs) return last.value;
    return this.refresh();
  }
}
