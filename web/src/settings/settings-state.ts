// The settings panel's rules as pure functions: which servers and tools a conversation uses, and
// what the add-server form accepts (the same rules as the API, so mistakes show before sending).
import {
  BUILTIN_SERVER,
  type ConversationSettings,
  DEFAULT_MAX_STEPS,
} from "../../../durable-objects/protocol/rest";

export { BUILTIN_SERVER };
/** The step limit a conversation gets when it sets none (the Conversation DO's default). */
export const DEFAULT_STEP_LIMIT = DEFAULT_MAX_STEPS;

export const isServerUsed = (settings: ConversationSettings, server: string) =>
  !(settings.blockedServers ?? []).includes(server);

/** Uses or stops using a server's tools in this conversation (blockedServers). */
export function setServerUsed(
  settings: ConversationSettings,
  server: string,
  used: boolean,
): ConversationSettings {
  const others = (settings.blockedServers ?? []).filter((s) => s !== server);
  const blocked = used ? others : [...others, server];
  const { blockedServers: _old, ...rest } = settings;
  return blocked.length > 0 ? { ...rest, blockedServers: blocked } : rest;
}

/**
 * The tools of a server this conversation offers: its own choice, else the server's saved
 * choice, else all of them.
 */
export function enabledToolsOf(
  settings: ConversationSettings,
  server: string,
  allTools: string[],
  serverDefault: string[] | null = null,
): string[] {
  const chosen = settings.enabledTools?.[server] ?? serverDefault;
  return chosen ? allTools.filter((t) => chosen.includes(t)) : allTools;
}

/**
 * Records which tools are checked. When they are exactly the default (all tools, or the
 * server's saved choice) the conversation's entry is removed, so tools the server adds later
 * are offered too.
 */
export function setEnabledTools(
  settings: ConversationSettings,
  server: string,
  checked: string[],
  allTools: string[],
  serverDefault: string[] | null = null,
): ConversationSettings {
  const chosen = allTools.filter((t) => checked.includes(t));
  const fallback = serverDefault ? allTools.filter((t) => serverDefault.includes(t)) : allTools;
  const isDefault = chosen.length === fallback.length && chosen.every((t) => fallback.includes(t));
  const { [server]: _old, ...others } = settings.enabledTools ?? {};
  const next = isDefault ? others : { ...others, [server]: chosen };
  const { enabledTools: _prev, ...rest } = settings;
  return Object.keys(next).length > 0 ? { ...rest, enabledTools: next } : rest;
}

/** A whole number from 1 to 20, or why not. */
export function parseStepLimit(
  text: string,
): { ok: true; value: number } | { ok: false; error: string } {
  const value = Number(text.trim());
  if (!text.trim() || !Number.isInteger(value) || value < 1 || value > 20)
    return { ok: false, error: "The step limit is a whole number from 1 to 20." };
  return { ok: true, value };
}

export interface HeaderRow {
  name: string;
  value: string;
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,100}$/;
const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Null when the row is fine (an empty row is fine: it is left out). */
export function headerRowProblem(row: HeaderRow): string | null {
  const name = row.name.trim();
  if (!name && !row.value) return null;
  if (!name) return "Give the header a name (for example Authorization).";
  if (!HEADER_NAME.test(name))
    return `'${name}' is not a header name: use letters, digits and '-' only.`;
  if (!row.value) return `Give the header '${name}' a value.`;
  if (row.value.length > 4000) return `The value of '${name}' is longer than 4000 characters.`;
  return null;
}

/** The header rows as an object, or the first problem (duplicate names included). */
export function headersFromRows(
  rows: HeaderRow[],
): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const problem = headerRowProblem(row);
    if (problem) return { ok: false, error: problem };
    const name = row.name.trim();
    if (!name) continue;
    if (seen.has(name.toLowerCase()))
      return { ok: false, error: `The header '${name}' is given twice.` };
    seen.add(name.toLowerCase());
    headers[name] = row.value;
  }
  return { ok: true, headers };
}

export function serverNameProblem(name: string, taken: string[]): string | null {
  if (!SERVER_NAME.test(name)) return "Name the server with 1–64 letters, digits, '_', '-' or '.'.";
  if (name === BUILTIN_SERVER) return `'${BUILTIN_SERVER}' is the built-in server's name.`;
  if (taken.includes(name)) return `You already have a server named '${name}'.`;
  return null;
}

export function urlProblem(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === "https:" || u.protocol === "http:"
      ? null
      : "The URL must start with https://.";
  } catch {
    return "Enter the server's full URL, for example https://example.com/mcp.";
  }
}
