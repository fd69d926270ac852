// The approval policies Settings edits, as pure functions: where an override lives (this
// conversation or all the user's conversations), what a tool falls back to without it, and how
// setting or clearing one changes the stored set. The rules are the Durable Object's
// (resolvePolicy), so what Settings shows is what a turn does.
import {
  resolvePolicy,
  type ToolHints,
  type ToolPolicies,
  type ToolPolicy,
} from "../../../durable-objects/protocol/tool-policy";

/** Where an override is stored: the conversation's settings, or the user's own policies. */
export type PolicyScope = "conversation" | "user";

export interface PolicySets {
  conversation: ToolPolicies | undefined;
  user: ToolPolicies;
}

/** The override stored in one scope for a server (tool omitted) or one of its tools. */
export function overrideOf(
  policies: ToolPolicies | undefined,
  server: string,
  tool?: string,
): ToolPolicy | undefined {
  const entry = policies?.[server];
  return tool === undefined ? entry?.server : entry?.tools?.[tool];
}

/** Sets (or, with null, removes) one override, dropping entries that end up empty. */
export function withOverride(
  policies: ToolPolicies | undefined,
  server: string,
  tool: string | undefined,
  policy: ToolPolicy | null,
): ToolPolicies {
  const { [server]: entry, ...others } = policies ?? {};
  const { server: serverPolicy, tools } = entry ?? {};
  let nextTools = tools;
  let nextServer = serverPolicy;
  if (tool === undefined) nextServer = policy ?? undefined;
  else {
    const { [tool]: _old, ...rest } = tools ?? {};
    nextTools = policy ? { ...rest, [tool]: policy } : rest;
  }
  const next = {
    ...(nextServer && { server: nextServer }),
    ...(nextTools && Object.keys(nextTools).length > 0 && { tools: nextTools }),
  };
  return Object.keys(next).length > 0 ? { ...others, [server]: next } : others;
}

/**
 * What a tool's calls do when this scope sets nothing for it: the next override down the line
 * (this scope's server entry, then the user's), else the default from its annotations.
 */
export function inheritedPolicy(
  sets: PolicySets,
  scope: PolicyScope,
  server: string,
  tool: string,
  hints: ToolHints | undefined,
  builtin: boolean,
): ToolPolicy {
  const without = withOverride(sets[scope], server, tool, null);
  return resolvePolicy({
    server,
    tool,
    hints,
    builtin,
    // Seen from the user's scope, a conversation's own choices are not the fallback.
    conversation: scope === "conversation" ? without : undefined,
    user: scope === "user" ? without : sets.user,
  });
}

/** What a server-wide choice falls back to in a scope: the user's own, else each tool's default. */
export function inheritedServerPolicy(
  sets: PolicySets,
  scope: PolicyScope,
  server: string,
): ToolPolicy | "per tool" {
  if (scope === "conversation") return overrideOf(sets.user, server) ?? "per tool";
  return "per tool";
}

/** The policy a turn of this conversation applies to the tool right now. */
export function effectivePolicy(
  sets: PolicySets,
  server: string,
  tool: string,
  hints: ToolHints | undefined,
  builtin: boolean,
): ToolPolicy {
  return resolvePolicy({
    server,
    tool,
    hints,
    builtin,
    conversation: sets.conversation,
    user: sets.user,
  });
}
