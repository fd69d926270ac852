// One fixed-window counter per limited key (an IP or a user, for one kind of action). It is the
// local and fallback side of the API's rate limits; deployed workers ask Cloudflare's Rate
// Limiting binding first. Each key gets its own object, so no counter is a shared bottleneck.
import { DurableObject } from "cloudflare:workers";

export interface RateLimitVerdict {
  allowed: boolean;
  /** Whole seconds until the current window ends and the count starts again. */
  retryAfterSeconds: number;
}

interface Window {
  endsAt: number;
  hits: number;
}

interface WindowRow extends Record<string, SqlStorageValue> {
  ends_at: number;
  hits: number;
}

export class RateLimitCounter extends DurableObject {
  /** The window as counted here: read from storage once (null: none stored), then kept. */
  #window: Window | null | undefined;
  /** When the alarm that ends the window was set for. */
  #alarmAt: number | null = null;
  #storing = false;

  /** Counts one hit in a window of `periodSeconds`; refuses past `limit` hits in it. */
  hit(limit: number, periodSeconds: number): RateLimitVerdict {
    const now = Date.now();
    const current = this.#current();
    const window =
      current && current.endsAt > now ? current : { endsAt: now + periodSeconds * 1000, hits: 0 };
    const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    // Refused hits are not counted: a client that keeps knocking gets in once the window ends.
    if (window.hits >= limit) return { allowed: false, retryAfterSeconds };
    this.#window = { endsAt: window.endsAt, hits: window.hits + 1 };
    this.#storeSoon();
    return { allowed: true, retryAfterSeconds };
  }

  override async alarm(): Promise<void> {
    const window = this.#current();
    if (window && window.endsAt > Date.now()) {
      this.#alarmAt = window.endsAt;
      await this.ctx.storage.setAlarm(window.endsAt);
      return;
    }
    // A key nobody uses any more leaves nothing behind once its window is over.
    await this.ctx.storage.deleteAll();
    this.#window = null;
    this.#alarmAt = null;
  }

  /**
   * Writes the count just after the answer has gone: a write before it would hold the answer
   * until the write is on disk (the output gate), and every message and new conversation waits
   * for this answer. Hits that arrive meanwhile share the one write. A restart in between loses
   * at most those few hits, which a rate limit can spare (Cloudflare's binding counts loosely too).
   */
  #storeSoon(): void {
    if (this.#storing) return;
    this.#storing = true;
    setTimeout(() => {
      this.#storing = false;
      const window = this.#window;
      if (!window) return;
      const sql = this.ctx.storage.sql;
      // Created on use, not in the constructor: the alarm's deleteAll drops the table too.
      sql.exec(
        "CREATE TABLE IF NOT EXISTS rate_window (id INTEGER PRIMARY KEY CHECK (id = 1), ends_at INTEGER NOT NULL, hits INTEGER NOT NULL)",
      );
      sql.exec(
        "INSERT OR REPLACE INTO rate_window (id, ends_at, hits) VALUES (1, ?, ?)",
        window.endsAt,
        window.hits,
      );
      if (this.#alarmAt !== window.endsAt) {
        this.#alarmAt = window.endsAt;
        void this.ctx.storage.setAlarm(window.endsAt);
      }
    }, 0);
  }

  #current(): Window | null {
    if (this.#window !== undefined) return this.#window;
    const sql = this.ctx.storage.sql;
    // Looked for, not created: creating it is a write, which would hold this answer.
    const stored = sql
      .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rate_window'")
      .toArray().length;
    const row = stored
      ? sql.exec<WindowRow>("SELECT ends_at, hits FROM rate_window").toArray()[0]
      : undefined;
    this.#window = row ? { endsAt: row.ends_at, hits: row.hits } : null;
    return this.#window;
  }
}
