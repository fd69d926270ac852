// What a running turn knows of its owner's MCP servers and tool policies. Read with the turn's
// other D1 reads when it starts, and read again only when the API says the owner changed them
// in Settings (Conversation.mcpSettingsChanged): no D1 read before each model request or call.
import type { Env } from "../../shared/env";
import type { ToolPolicies } from "../protocol/tool-policy";
import { type ServerConfig, serversFromRows, userServersSql } from "./mcp-servers";
import { policiesFromRows, userPoliciesSql } from "./user-tool-policies";

export interface OwnerSettings {
  servers: ServerConfig[];
  policies: ToolPolicies;
}

export class LiveSettings {
  #now: OwnerSettings;
  /** A read under way (or due again: the last one failed); calls wait for it. */
  #reading: Promise<void> | null = null;
  #stale = false;
  /** Reads started and the latest applied: an older read that lands late is dropped. */
  #started = 0;
  #applied = 0;

  constructor(
    initial: OwnerSettings,
    private readonly read: () => Promise<OwnerSettings>,
  ) {
    this.#now = initial;
  }

  get servers(): ServerConfig[] {
    return this.#now.servers;
  }

  get policies(): ToolPolicies {
    return this.#now.policies;
  }

  /** Changes with each read that landed: a catalog made at another version is out of date. */
  get version(): number {
    return this.#applied;
  }

  /** Changed since the last read that landed (a read may be under way). */
  get stale(): boolean {
    return this.#stale;
  }

  /** The owner changed servers or policies: read them again now. */
  changed(): void {
    this.#stale = true;
    this.#reading = this.#readNow();
  }

  /** The settings as they are now: waits for a read under way, or tries a failed one again. */
  async current(): Promise<OwnerSettings> {
    if (this.#stale && !this.#reading) this.#reading = this.#readNow();
    while (this.#reading) {
      const reading = this.#reading;
      await reading;
      if (this.#reading === reading) this.#reading = null;
    }
    return this.#now;
  }

  async #readNow(): Promise<void> {
    const ticket = ++this.#started;
    try {
      const now = await this.read();
      if (ticket < this.#applied) return;
      this.#applied = ticket;
      this.#now = now;
      if (ticket === this.#started) this.#stale = false;
    } catch (err) {
      // Kept stale: the next call tries again; meanwhile the turn goes on with what it had.
      console.warn("could not read the owner's MCP servers and tool policies again", err);
    }
  }
}

/** The owner's enabled servers (ours first) and tool policies, in one D1 round trip. */
export async function ownerSettings(env: Env, ownerId: string): Promise<OwnerSettings> {
  const [servers, policies] = await env.DB.batch([
    env.DB.prepare(userServersSql()).bind(ownerId),
    env.DB.prepare(userPoliciesSql()).bind(ownerId),
  ]);
  return {
    servers: serversFromRows(env, servers?.results ?? []),
    policies: policiesFromRows(policies?.results ?? []),
  };
}
