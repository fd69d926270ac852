// One fixed-window counter per limited key (an IP or a user, for one kind of action). It is the
// local and fallback side of the API's rate limits; deployed workers ask Cloudflare's Rate
// Limiting binding first. Each key gets its own object, so no counter is a shared bottleneck.
import { DurableObject } from "cloudflare:workers";

export interface RateLimitVerdict {
  allowed: boolean;
  /** Whole seconds until the current window ends and the count starts again. */
  retryAfterSeconds: number;
}

interface WindowRow extends Record<string, SqlStorageValue> {
  ends_at: number;
  hits: number;
}

export class RateLimitCounter extends DurableObject {
  /** Counts one hit in a window of `periodSeconds`; refuses past `limit` hits in it. */
  hit(limit: number, periodSeconds: number): RateLimitVerdict {
    const now = Date.now();
    const stored = this.#storedWindow();
    const fresh = !stored || stored.ends_at <= now;
    const window = fresh ? { ends_at: now + periodSeconds * 1000, hits: 0 } : stored;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.ends_at - now) / 1000));
    // Refused hits are not counted: a client that keeps knocking gets in once the window ends.
    if (window.hits >= limit) return { allowed: false, retryAfterSeconds };
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO rate_window (id, ends_at, hits) VALUES (1, ?, ?)",
      window.ends_at,
      window.hits + 1,
    );
    // A key nobody uses any more leaves nothing behind once its window is over.
    if (fresh) void this.ctx.storage.setAlarm(window.ends_at);
    return { allowed: true, retryAfterSeconds };
  }

  override async alarm(): Promise<void> {
    const stored = this.#storedWindow();
    if (stored && stored.ends_at > Date.now()) await this.ctx.storage.setAlarm(stored.ends_at);
    else await this.ctx.storage.deleteAll();
  }

  #storedWindow(): WindowRow | undefined {
    const sql = this.ctx.storage.sql;
    // Created on use, not in the constructor: the alarm's deleteAll drops the table too.
    sql.exec(
      "CREATE TABLE IF NOT EXISTS rate_window (id INTEGER PRIMARY KEY CHECK (id = 1), ends_at INTEGER NOT NULL, hits INTEGER NOT NULL)",
    );
    return sql.exec<WindowRow>("SELECT ends_at, hits FROM rate_window").toArray()[0];
  }
}
