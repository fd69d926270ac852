// The log level a client set with logging/setLevel, kept per session id in a Durable Object so
// that every later request of that session sees it, whichever isolate answers.
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { LoggingLevelSchema } from "@modelcontextprotocol/sdk/types.js";
import { DurableObject } from "cloudflare:workers";

/** How long a level is remembered after the session last used it. */
export const LEVEL_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export class SessionLogLevel extends DurableObject {
  async getLevel(): Promise<LoggingLevel | null> {
    const parsed = LoggingLevelSchema.safeParse(await this.ctx.storage.get("level"));
    if (!parsed.success) return null;
    // A session still in use keeps its level; pushing the expiry once a day is enough.
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm - Date.now() < LEVEL_TTL_MS - 24 * 60 * 60 * 1000)
      await this.ctx.storage.setAlarm(Date.now() + LEVEL_TTL_MS);
    return parsed.data;
  }

  async setLevel(level: LoggingLevel): Promise<void> {
    await this.ctx.storage.put("level", level);
    await this.ctx.storage.setAlarm(Date.now() + LEVEL_TTL_MS);
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
