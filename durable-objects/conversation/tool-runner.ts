// The tools of a turn: the user's MCP servers plus our own, over streamable HTTP. Sessions and
// tool catalogs are kept in the DO (they survive restarts), so a turn after the first sends no
// initialize and no tools/list unless a server said its tools changed.
import { positiveSetting } from "../../shared/positive-setting";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type Tool,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { Env } from "../../shared/env";
import { signContextToken } from "../../shared/context-token";
import type { CatalogTool, SignInNeeded, ToolRunner } from "../loop/types";
import { DEFAULT_BREAKER } from "../mcp/circuit-breaker";
import { callClock, NO_SDK_TIMEOUT } from "../mcp/call-clock";
import { ToolCallResultSchema } from "../mcp/call-result";
import { describeCallError, failureCause, isServerFault } from "../mcp/call-errors";
import { internetRoute, type McpRoute, newMcpClient, newMcpTransport } from "../mcp/mcp-client";
import { unsupportedVersion } from "../mcp/probe-server";
import { forgetSharedCatalog, shareCatalog, sharedCatalog } from "../mcp/shared-catalog";
import { listAllTools, outputSchemaProblem } from "../mcp/tool-list";
import { leftOutToolsNotice, toolNameProblem } from "../protocol/tool-name-rules";
import { logLineLimiter } from "../mcp/log-lines";
import { pacedProgress } from "../mcp/progress-pace";
import {
  CachedSession,
  type ConnectionPool,
  endSessions,
  type Live,
  sessionKey,
  unusedSince,
} from "./mcp-connections";
import { backgroundProvider } from "../mcp/oauth/background-provider";
import { secretBox } from "../mcp/oauth/secret-box";
import { SignInRequiredError } from "../mcp/oauth/sign-in-errors";
import { failureLimit, forgetOldFailures, skipSentence } from "./mcp-failure-limit";
import type { LiveSettings } from "./live-settings";
import { BUILTIN_SERVER, type ServerConfig, serversForUser } from "./mcp-servers";
import type { ConversationStore } from "./store";
import type { ConversationInfo } from "./turn";
import { answerQuestionsOn, trackCall } from "./elicitation-handler";
import { openPages, PagesNotOpened, pagesRequired } from "./link-required";

const SEQUENTIAL_THINKING = /sequential[-_]?thinking/i;
const CONTEXT_FIELD = "databaseContext";
const CONTEXT_TTL_SECONDS = 15 * 60;
/** How much of a call's result the timeline's one line shows (web/src/chat/tool-summary.ts). */
const SUMMARY_LINE = 140;

export type { ConnectionPool };

export interface McpCounters {
  initialize: number;
  toolsList: number;
}

/** How each server is reached: ours through its binding; any other over the guarded internet. */
export function routesFor(env: Env): (s: ServerConfig | undefined) => McpRoute {
  // Any server but ours only after its URL, the addresses its name resolves to and every
  // redirect are checked.
  const internet = internetRoute({
    allowLocal: env.APP_ENV === "development",
    dnsResolver: env.MCP_DNS_RESOLVER,
  });
  return (s) =>
    s?.builtin
      ? {
          kind: "binding",
          fetch: (u: RequestInfo | URL, i?: RequestInit) => env.MCP_REMOTE.fetch(new Request(u, i)),
        }
      : internet;
}

/** Ends every MCP session of a conversation (it is being deleted), with its servers' headers. */
export async function endAllSessions(opts: {
  env: Env;
  store: ConversationStore;
  pool: ConnectionPool;
  userId: string | null;
}): Promise<void> {
  const servers = opts.userId ? await serversForUser(opts.env, opts.userId) : [];
  await endSessions({
    store: opts.store,
    pool: opts.pool,
    servers,
    routeFor: routesFor(opts.env),
    which: () => true,
  });
}

/**
 * Ends the sessions of a conversation nobody used for `idleMs` (HTTP DELETE), so its servers do
 * not keep one per conversation forever: live connections idle that long, and stored sessions
 * with no live connection (the instance that opened them was evicted or restarted, and its
 * standing stream went with it); and the failure counts of servers no longer configured so.
 * Returns how long until the next live one turns idle, or null.
 */
export async function endIdleSessions(opts: {
  env: Env;
  store: ConversationStore;
  pool: ConnectionPool;
  userId: string | null;
  idleMs: number;
}): Promise<number | null> {
  const { idle, nextInMs } = unusedSince(opts.pool, opts.idleMs);
  const servers = opts.userId ? await serversForUser(opts.env, opts.userId) : [];
  await endSessions({
    store: opts.store,
    pool: opts.pool,
    servers,
    routeFor: routesFor(opts.env),
    which: (key) => idle.has(key) || !opts.pool.has(key),
  });
  // Here rather than in a turn: nothing is added before a message's model request.
  forgetOldFailures(opts.store, servers);
  return nextInMs;
}

export async function createToolRunner(opts: {
  env: Env;
  conversation: ConversationInfo;
  store: ConversationStore;
  pool: ConnectionPool;
  counters?: McpCounters;
  apiBase: string;
  /** Puts a server's question during a call to the turn's user (elicitations.ts). */
  elicit?: ElicitationBridge;
  /** The owner's servers, when the turn read them already (turn-reads.ts). */
  registry?: ServerConfig[];
  /** The owner's servers as Settings change them during the turn (live-settings.ts). */
  live?: LiveSettings;
}): Promise<ToolRunner> {
  const { env, conversation, store, pool } = opts;
  const cooldownMs = positiveSetting("MCP_BREAKER_COOLDOWN_MS", env.MCP_BREAKER_COOLDOWN_MS);
  const breakerOpts = { ...DEFAULT_BREAKER, ...(cooldownMs !== undefined && { cooldownMs }) };
  const routeFor = routesFor(env);
  const limit = failureLimit(store, breakerOpts);
  const blocked = new Set(conversation.settings.blockedServers ?? []);
  // Side by side; the registry usually came with the turn's other D1 reads (turn-reads.ts).
  const [registry, box] = await Promise.all([
    opts.registry ?? serversForUser(env, conversation.userId),
    secretBox(env).catch(() => null),
  ]);
  // Sessions with servers that left the registry (removed, disabled or moved) end here, at the
  // first turn after the change; the turn does not wait for them.
  const current = new Set(registry.map(sessionKey));
  void endSessions({ store, pool, servers: registry, routeFor, which: (k) => !current.has(k) });
  let servers = registry.filter((s) => !blocked.has(s.name));
  let byName = new Map(servers.map((s) => [s.name, s]));
  /** Servers of this turn the owner removed or switched off in Settings since it began. */
  const removed = new Map<string, ServerConfig>();
  let seenVersion = opts.live?.version ?? 0;
  /** Takes the owner's servers as last read (a change in Settings mid-turn). */
  const sync = () => {
    const live = opts.live;
    if (!live || live.version === seenVersion) return;
    seenVersion = live.version;
    const now = live.servers.filter((s) => !blocked.has(s.name));
    const names = new Set(now.map((s) => s.name));
    for (const s of servers) if (!names.has(s.name)) removed.set(s.name, s);
    for (const name of names) removed.delete(name);
    servers = now;
    byName = new Map(servers.map((s) => [s.name, s]));
  };
  const removedSentence = (name: string) =>
    `the server '${name}' was removed or switched off in Settings during this turn`;
  // This user's own OAuth sign-ins (never another user's: the key is the turn's user).
  const apiOrigin = URL.canParse(opts.apiBase) ? opts.apiBase : "https://app.invalid";
  const authProviderFor = (s: ServerConfig) =>
    box && s.id && !s.builtin
      ? // The redirect URL is only named (a turn never starts a sign-in), so any origin will do.
        backgroundProvider(env.DB, box, conversation.userId, { ...s, id: s.id }, apiOrigin)
      : undefined;
  const schemas = new Map<string, Record<string, unknown>>();
  /** The servers the latest catalog() listed: one whose cached list was dropped since changed. */
  const listedServers = new Set<ServerConfig>();
  /** The catalog's tools, whose output schemas each result is checked against. */
  const listed = new Map<string, Tool>();

  const cacheKey = sessionKey;
  const readCache = (s: ServerConfig): CachedSession => {
    const raw = store.getMeta(cacheKey(s));
    const parsed = raw ? CachedSession.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : { tools: null };
  };
  const writeCache = (s: ServerConfig, c: CachedSession) =>
    store.setMeta(cacheKey(s), JSON.stringify(c));
  const catalogSource = (s: ServerConfig) => ({ userId: conversation.userId, ...s });

  const connect = async (s: ServerConfig, fresh = false): Promise<Live> => {
    const existing = pool.get(cacheKey(s));
    // Opened before the user edited the server (new headers: a revoked key, say): a new session
    // with what the server's settings say now. A call still running on the old one may finish.
    const outdated = !!existing && existing.editedAt !== s.editedAt;
    if (existing && !fresh && !outdated) return existing;
    if (existing && !(outdated && existing.runningCalls?.length))
      await existing.client.close().catch(() => undefined);
    const renew = fresh || outdated;
    const cached = renew ? { tools: null } : readCache(s);
    const authProvider = authProviderFor(s);
    const transport = newMcpTransport({
      url: s.url,
      headers: s.headers,
      route: routeFor(s),
      ...(cached.sessionId && { sessionId: cached.sessionId }),
      ...(authProvider && {
        authProvider,
        onResponse: (r: Response) => authProvider.observeResponse(r),
      }),
    });
    const client = newMcpClient({ elicitation: !!opts.elicit });
    const live: Live = { client, transport, lastUsed: Date.now(), editedAt: s.editedAt };
    const elicit = opts.elicit;
    if (elicit) answerQuestionsOn(client, live, (id) => elicit.completed(s.name, id));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      forgetSharedCatalog(catalogSource(s));
      writeCache(s, { ...readCache(s), tools: null });
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) =>
      [...(live.logListeners ?? [])].at(-1)?.({ level: n.params.level, data: n.params.data }),
    );
    await client.connect(transport, { timeout: s.timeoutMs });
    // Counted once the handshake succeeded (a resumed session sends none).
    if (!cached.sessionId && opts.counters) opts.counters.initialize++;
    if (cached.sessionId && cached.protocolVersion)
      transport.setProtocolVersion(cached.protocolVersion);
    // A fresh handshake opens the standing GET stream by itself; a resumed session (after a
    // restart, or after idle connections were closed) must reopen it, or notifications the
    // server sends outside a request (tools/list_changed) are lost. An empty resumption token
    // asks for new messages only. Servers without one answer 405, which the SDK accepts.
    if (cached.sessionId) void transport.resumeStream("").catch(() => undefined);
    writeCache(s, {
      // A new session keeps the catalog this conversation was offered (a sibling's), unless the
      // old session was lost: then its tools are listed again.
      ...(cached.sessionId ? cached : { tools: renew ? null : cached.tools }),
      sessionId: transport.sessionId,
      protocolVersion: transport.protocolVersion ?? cached.protocolVersion,
    });
    pool.set(cacheKey(s), live);
    return live;
  };

  /** Runs `fn` on a connection; a session the server forgot (404) is re-initialised once. */
  const withSession = async <T>(s: ServerConfig, fn: (live: Live) => Promise<T>): Promise<T> => {
    const live = await connect(s);
    live.lastUsed = Date.now();
    try {
      return await fn(live);
    } catch (err) {
      if (!isLostSession(err)) throw err;
      return fn(await connect(s, true));
    }
  };

  const toolsOf = async (s: ServerConfig): Promise<Tool[]> => {
    const cached = readCache(s);
    if (cached.tools && pool.has(cacheKey(s))) return cached.tools as Tool[];
    if (cached.tools && cached.sessionId) {
      await connect(s);
      return cached.tools as Tool[];
    }
    // No session of our own: a catalog a sibling conversation listed lately will do, and the
    // session opens at the first call.
    // Not for a server the user may sign in to: a turn's handshake is what notices (and says)
    // that a sign-in expired or was revoked.
    const shareable = !authProviderFor(s);
    const shared = cached.sessionId || !shareable ? null : sharedCatalog(catalogSource(s));
    if (shared) {
      writeCache(s, { tools: shared });
      return shared;
    }
    return withSession(s, async (live) => {
      if (opts.counters) opts.counters.toolsList++;
      const tools = await listAllTools(live.client, s.timeoutMs);
      // The server answered; a list read from a cache above says nothing about that.
      answered(s);
      writeCache(s, { ...readCache(s), tools });
      if (!authProviderFor(s)) shareCatalog(catalogSource(s), tools);
      return tools;
    });
  };

  /** The notice of a server's left-out tools, once per conversation for the same tools. */
  const tellOnce = (s: ServerConfig, leftOut: Array<{ name: string; problem: string }>) => {
    const key = `left-out-tools:${s.name}`;
    const names = JSON.stringify(leftOut.map((t) => t.name).sort());
    if (leftOut.length === 0 || store.getMeta(key) === names) return null;
    store.setMeta(key, names);
    return leftOutToolsNotice(s.name, leftOut);
  };

  /** A server's tools as the turn may offer them: named acceptably, allowed, and not "thinking". */
  const usable = (s: ServerConfig, listedTools: Tool[]) => {
    const tools: CatalogTool[] = [];
    const leftOut: Array<{ name: string; problem: string }> = [];
    const allowed = (conversation.settings.enabledTools ?? {})[s.name] ?? s.enabledTools;
    for (const t of listedTools) {
      const problem = toolNameProblem(t.name);
      if (problem) {
        leftOut.push({ name: t.name, problem });
        continue;
      }
      if (SEQUENTIAL_THINKING.test(t.name) || SEQUENTIAL_THINKING.test(s.name)) continue;
      if (allowed && !allowed.includes(t.name)) continue;
      schemas.set(`${s.name}\u0000${t.name}`, t.inputSchema as Record<string, unknown>);
      listed.set(`${s.name}\u0000${t.name}`, t);
      tools.push({
        server: s.name,
        tool: t.name,
        description: t.description ?? t.title ?? t.name,
        inputSchema: withoutContextField(t.inputSchema as Record<string, unknown>),
        ...(t.annotations && { annotations: t.annotations }),
      });
    }
    return { tools, leftOut };
  };
  /** Servers that answered again after reaching their failure limit, not yet told (`backAgain`). */
  const back = new Set<string>();
  const answered = (s: ServerConfig) => {
    if (limit.succeeded(s)) back.add(s.name);
  };
  /** Each server's tools as this turn last listed them (see `known` in catalog()). */
  const listedThisTurn = new Map<string, Tool[]>();
  /**
   * Servers the turn already said are skipped or unavailable (a notice, or the call that reached
   * the limit): a catalog read again mid-turn says only what is new.
   */
  const told = new Set<string>();
  const tellOnceATurn = (s: ServerConfig, warnings: string[], text: string) => {
    if (!told.has(s.name)) warnings.push(text);
    told.add(s.name);
  };

  return {
    changed: () =>
      [...listedServers].some((s) => readCache(s).tools === null) ||
      (!!opts.live && (opts.live.stale || opts.live.version !== seenVersion)),

    async catalog() {
      await opts.live?.current();
      sync();
      listedServers.clear();
      const tools: CatalogTool[] = [];
      const known: CatalogTool[] = [];
      const warnings: string[] = [];
      const signIns: SignInNeeded[] = [];
      // Not offered, but still known: a call the model makes to one of them anyway (it saw the
      // tool earlier in the turn, or in an earlier turn) is answered as skipped, not as a tool
      // that does not exist. Read from this turn's listing or the stored one: no request.
      const keepKnown = (s: ServerConfig) =>
        known.push(...usable(s, listedThisTurn.get(s.name) ?? readCache(s).tools ?? []).tools);
      // Still known, so a call the model makes anyway is answered as removed, not unknown.
      for (const s of removed.values()) keepKnown(s);
      await Promise.all(
        servers.map(async (s) => {
          const skip = limit.skipped(s);
          if (skip) {
            keepKnown(s);
            return tellOnceATurn(
              s,
              warnings,
              `The MCP server '${s.name}' ${skipSentence(skip)}; it is tried again after that.`,
            );
          }
          try {
            const listedTools = await toolsOf(s);
            listedThisTurn.set(s.name, listedTools);
            told.delete(s.name);
            const { tools: offered, leftOut } = usable(s, listedTools);
            tools.push(...offered);
            const leftOutNotice = tellOnce(s, leftOut);
            if (leftOutNotice) warnings.push(leftOutNotice);
            listedServers.add(s);
          } catch (err) {
            // Not a fault of the server: skipped until the user signs in.
            if (err instanceof SignInRequiredError)
              return void (s.id
                ? signIns.push({ serverId: s.id, serverName: s.name, message: err.message })
                : warnings.push(err.message));
            const opened = limit.failed(s, failureCause(err, s.timeoutMs));
            // Offered a step before (its list read again failed): its tools are still called.
            if (opened || listedThisTurn.has(s.name)) keepKnown(s);
            const version = unsupportedVersion(err);
            tellOnceATurn(
              s,
              warnings,
              version !== null
                ? `The MCP server '${s.name}' only speaks MCP protocol version ${version}, which this app does not support; the server needs an update.`
                : `The MCP server '${s.name}' is unavailable (${describeCallError(err, true).message.replace(/\.$/, "")})${opened ? `; it failed ${opened.failures} times in a row, so it is skipped for ${opened.skippedForS} s` : ""}.`,
            );
          }
        }),
      );
      const order = (a: CatalogTool, b: CatalogTool) =>
        `${a.server}:${a.tool}`.localeCompare(`${b.server}:${b.tool}`);
      return { tools: tools.sort(order), known: known.sort(order), warnings, signIns };
    },

    backAgain() {
      const names = [...back];
      back.clear();
      return names;
    },

    skipped(serverName) {
      sync();
      if (removed.has(serverName)) return removedSentence(serverName);
      const s = byName.get(serverName);
      const skip = s ? limit.skipped(s) : null;
      return skip && `'${serverName}' ${skipSentence(skip)}`;
    },

    async call(serverName, tool, args, hooks) {
      // A change in Settings that landed before this call applies to it (URL, headers, removal).
      await opts.live?.current();
      sync();
      if (removed.has(serverName))
        return {
          ok: false,
          error: {
            code: "removed",
            message: `${serverName}: not called, ${removedSentence(serverName)}.`,
          },
        };
      const s = byName.get(serverName);
      if (!s)
        return {
          ok: false,
          error: { code: "unknown_server", message: `No MCP server named ${serverName}.` },
        };
      // A server that reached its failure limit (in this turn or before) is not called again
      // until its cool-down ends: each call would most likely fail too, slowly.
      const skip = limit.skipped(s);
      if (skip) {
        // The timeline shows a call's first 140 characters: the cause is cut to fit there.
        const lead = `${serverName}: not called, it `;
        const message = `${lead}${skipSentence(skip, SUMMARY_LINE - lead.length - 1)}.`;
        return { ok: false, error: { code: "skipped", message } };
      }
      const schema = schemas.get(`${serverName}\u0000${tool}`);
      const finalArgs = { ...args };
      if (s.builtin && schema && hasProperty(schema, CONTEXT_FIELD)) {
        // Graph tools act on this conversation only, with a short-lived token scoped to it.
        finalArgs[CONTEXT_FIELD] = {
          conversationId: conversation.id,
          apiBase: opts.apiBase,
          token: await signContextToken(env.GRAPH_CONTEXT_SECRET ?? "", {
            conversationId: conversation.id,
            userId: conversation.userId,
            ttlSeconds: CONTEXT_TTL_SECONDS,
          }),
        };
      }
      const call = { callId: hooks.callId, server: serverName, tool };
      try {
        const run = () =>
          withSession(s, async (live) => {
            // A listener of its own: a call beside it that ends first must not take it away.
            const shown = logLineLimiter();
            const onLog = (l: { level: string; data: unknown }) => {
              const line = shown(l);
              if (line) hooks.onLog(line);
            };
            (live.logListeners ??= new Set()).add(onLog);
            // Progress resets the per-call timeout; the ceiling bounds the whole call; both wait
            // while the user answers a question the server asked.
            const clock = callClock(hooks.signal, {
              idleMs: Math.min(s.timeoutMs, s.maxTotalMs),
              maxTotalMs: s.maxTotalMs,
              ceilingMessage: `${tool} ran longer than ${Math.round(s.maxTotalMs / 1000)} s, the longest one call to '${serverName}' may take, and was cancelled. Raise the server's maxTotalTimeoutMs if its tools need longer.`,
            });
            const elicit = opts.elicit;
            const untrack = elicit
              ? trackCall(live, {
                  callId: hooks.callId,
                  ask: async (params, signal) => {
                    const release = clock.hold();
                    try {
                      return await elicit.ask(
                        call,
                        params,
                        AbortSignal.any([signal, clock.signal]),
                      );
                    } finally {
                      release();
                    }
                  },
                })
              : () => undefined;
            // Every report keeps the call alive; the timeline gets a few a second.
            const progress = pacedProgress(hooks.onProgress);
            try {
              // A plain request: the output schema is checked below (callTool would check it
              // only for tools its own last list saw), and embedded resources keep their names.
              const params = { name: tool, arguments: finalArgs };
              return await live.client.request(
                { method: "tools/call", params },
                ToolCallResultSchema,
                {
                  signal: clock.signal,
                  timeout: NO_SDK_TIMEOUT,
                  onprogress: (p) => {
                    clock.progressed();
                    progress.report({
                      progress: p.progress,
                      ...(p.total !== undefined && { total: p.total }),
                      ...(p.message && { message: p.message }),
                    });
                  },
                },
              );
            } finally {
              progress.stop();
              clock.dispose();
              untrack();
              live.logListeners.delete(onLog);
            }
          });
        // A call that needs the user on a page of the server's first (link-required.ts) is made
        // again once they have been there; a second such answer is the call's error.
        const result = await run().catch(async (err: unknown) => {
          const pages = opts.elicit ? pagesRequired(err) : null;
          if (!pages) throw err;
          const refused = await openPages(opts.elicit!, call, pages, hooks.signal);
          if (hooks.signal.aborted) throw err;
          if (refused) throw new PagesNotOpened(refused);
          return run();
        });
        // Checked here on every call: the SDK would check only tools its own list saw.
        const problem = outputSchemaProblem(listed.get(`${serverName}\u0000${tool}`), result);
        // The server answered: one tool's bad data is that tool's fault, so it does not count
        // toward the failure limit that would switch off the server's other tools.
        answered(s);
        if (problem) {
          const message = `${serverName}: the server sent a malformed result: ${problem}.`;
          return { ok: false, error: { code: "malformed_result", message } };
        }
        return { ok: true, result };
      } catch (err) {
        if (err instanceof PagesNotOpened)
          return {
            ok: false,
            error: { code: "declined", message: `${serverName}: ${err.message}` },
          };
        // A call that needs more access (step-up) is the user's to grant, not a server fault.
        if (err instanceof SignInRequiredError)
          return { ok: false, error: { code: "needs_sign_in", message: err.message } };
        // The user stopped the answer: the SDK has told the server (notifications/cancelled).
        if (hooks.signal.aborted)
          return {
            ok: false,
            error: {
              code: "aborted",
              message: `${serverName}: stopped with the answer; the server was asked to cancel ${tool}, which may have done part of its work.`,
            },
          };
        const { failure, message } = describeCallError(err);
        // A server that answered (the request was wrong; the tool ran past its ceiling) is up.
        const serverFault = isServerFault(err);
        if (!serverFault) answered(s);
        const waited = Math.min(s.timeoutMs, s.maxTotalMs);
        const opened = serverFault ? limit.failed(s, failureCause(err, waited)) : null;
        const timedOut =
          failure === "other" &&
          ((err instanceof McpError && err.code === ErrorCode.RequestTimeout) ||
            /timed out|timeout/i.test(message));
        const code = failure !== "other" ? failure : timedOut ? "timeout" : "unavailable";
        // The news first: the timeline's one-line summary of a call shows its first 140 characters.
        if (opened) told.add(serverName);
        const said = opened
          ? `${serverName} (failed ${opened.failures} times in a row: skipped for ${opened.skippedForS} s): ${message}`
          : `${serverName}: ${message}`;
        return { ok: false, error: { code, message: said } };
      }
    },
  };
}

function hasProperty(schema: Record<string, unknown>, name: string): boolean {
  const props = schema.properties;
  return !!props && typeof props === "object" && name in (props as object);
}

/** The model never sees (or fills) the injected context. */
function withoutContextField(schema: Record<string, unknown>): Record<string, unknown> {
  if (!hasProperty(schema, CONTEXT_FIELD)) return schema;
  const { [CONTEXT_FIELD]: _omit, ...properties } = schema.properties as Record<string, unknown>;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r) => r !== CONTEXT_FIELD)
    : undefined;
  return { ...schema, properties, ...(required && { required }) };
}

export const BUILTIN = BUILTIN_SERVER;

/** How a turn's user is asked what a server needs during a call (see elicitations.ts). */
export interface ElicitationBridge {
  ask(
    call: { callId: string; server: string; tool: string },
    params: ElicitRequest["params"],
    signal: AbortSignal,
  ): Promise<ElicitResult>;
  /** The server says the user finished the web page of a link question. */
  completed(server: string, serverElicitationId: string): void;
}

/**
 * The server no longer knows our session: 404 as the spec says, or the 400 "no valid session"
 * some servers (server-everything among them) send instead.
 */
function isLostSession(err: unknown): boolean {
  if (!(err instanceof StreamableHTTPError)) return false;
  return err.code === 404 || (err.code === 400 && /session/i.test(err.message));
}
