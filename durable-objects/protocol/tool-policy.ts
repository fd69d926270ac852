// Which tool calls run at once, which wait for the user, and which are never offered. Shared by
// the Durable Object (it decides) and the web client (it shows the effective policy).
import { z } from "zod";

/** allow: runs at once; ask: waits for the user's approval; never: not offered, never run. */
export const ToolPolicy = z.enum(["allow", "ask", "never"]);
export type ToolPolicy = z.infer<typeof ToolPolicy>;

/** Overrides for one MCP server: for all its tools, and per tool (which wins). */
export const ServerToolPolicies = z
  .object({
    server: ToolPolicy.optional(),
    tools: z.record(z.string().min(1).max(200), ToolPolicy).optional(),
  })
  .strict();
export type ServerToolPolicies = z.infer<typeof ServerToolPolicies>;

/** Overrides by MCP server name. */
export const ToolPolicies = z.record(z.string().min(1).max(100), ServerToolPolicies);
export type ToolPolicies = z.infer<typeof ToolPolicies>;

/** The MCP tool annotations that decide the default policy. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * The policy a tool has when nobody overrode it. A read-only tool runs; a tool that may destroy
 * or reach the outside world asks. On a server the user added, MCP's defaults hold (an unset hint
 * of a tool that is not read-only counts as true, and a tool with no annotations asks). On our
 * own MCP worker only what its tools declare counts: its graph edits run, its graph removal asks.
 */
export function defaultPolicy(hints: ToolHints | undefined, builtin: boolean): ToolPolicy {
  if (!hints) return builtin ? "allow" : "ask";
  if (hints.readOnlyHint === true) return "allow";
  const destructive = hints.destructiveHint ?? !builtin;
  const openWorld = hints.openWorldHint ?? !builtin;
  return destructive || openWorld ? "ask" : "allow";
}

/** The conversation's overrides win over the user's; a tool's own entry wins over its server's. */
export function resolvePolicy(input: {
  server: string;
  tool: string;
  hints: ToolHints | undefined;
  builtin: boolean;
  conversation?: ToolPolicies | undefined;
  user?: ToolPolicies | undefined;
}): ToolPolicy {
  const { server, tool } = input;
  return (
    input.conversation?.[server]?.tools?.[tool] ??
    input.conversation?.[server]?.server ??
    input.user?.[server]?.tools?.[tool] ??
    input.user?.[server]?.server ??
    defaultPolicy(input.hints, input.builtin)
  );
}
