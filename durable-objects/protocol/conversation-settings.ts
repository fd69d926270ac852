// A conversation's settings: what its turns run with (steps, tools, budgets, routing), shared by
// the worker, the Durable Object and the web client. Apart from rest.ts (which re-exports them) so
// that the object, which reads them on every turn, does not build every REST shape as it starts.
import { z } from "zod";
import { TemplateContext } from "./template-context";
import { ToolPolicies } from "./tool-policy";

export const ConversationMode = z.enum(["normal", "graph", "tools"]);
export type ConversationMode = z.infer<typeof ConversationMode>;

/** Steps a turn may take when neither the conversation nor the message sets a limit. */
export const DEFAULT_MAX_STEPS = 5;
/** Our own MCP worker, offered to every conversation through its service binding. */
export const BUILTIN_SERVER = "mcp-remote";

/** Per-turn budgets: total tokens (input + output), USD, and seconds of running time. */
export const TurnBudgetSettings = z
  .object({
    tokens: z.number().int().min(1).max(100_000_000).optional(),
    costUsd: z.number().positive().max(10_000).optional(),
    seconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
  })
  .strict();
export type TurnBudgetSettings = z.infer<typeof TurnBudgetSettings>;

/** A model a step may be routed to: a provider and one of its models. */
export const RouteModel = z
  .object({
    provider: z.enum(["anthropic", "openai", "gemini", "ollama"]),
    model: z.string().min(1).max(200),
  })
  .strict();
export type RouteModel = z.infer<typeof RouteModel>;

/** How hard a reasoning model thinks before it answers: more effort, more reasoning tokens. */
export const ReasoningEffort = z.enum(["low", "medium", "high"]);
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

export const ConversationSettings = z
  .object({
    maxSteps: z.number().int().min(1).max(20).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(64_000).optional(),
    // Unset: each model's own default (Claude thinks only when asked; OpenAI's and Gemini's
    // reasoning models at their default effort). Models that cannot reason are asked nothing.
    reasoningEffort: ReasoningEffort.optional(),
    // MCP server names whose tools this conversation must not use (exact names).
    blockedServers: z.array(z.string().min(1).max(100)).max(100).optional(),
    // Per server: the only tools offered to the model. A server not listed offers all its tools.
    enabledTools: z.record(z.string(), z.array(z.string().min(1).max(200)).max(500)).optional(),
    // Per server and tool: allow, ask (wait for approval) or never; over the user's own policies.
    toolPolicies: ToolPolicies.optional(),
    // How long a call waits for approval before it counts as denied (default: 24 h).
    approvalTimeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional(),
    // How long a tool call waits for the answer to its server's question (default: 10 min).
    elicitationTimeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
    // What one turn may use before it is wrapped up (over the operator's defaults).
    budgets: TurnBudgetSettings.optional(),
    // The model's context window in tokens, when it differs from the built-in table (an Ollama
    // model run with a larger num_ctx, a fine-tune): the history is fitted within it.
    contextWindow: z.number().int().min(1_000).max(10_000_000).optional(),
    // Most characters of text and reasoning one turn may stream (default 60 000).
    answerCapChars: z.number().int().min(1_000).max(1_000_000).optional(),
    // Most tools offered in one step (default 40); above it, the most relevant and find_tools.
    maxToolsPerStep: z.number().int().min(2).max(500).optional(),
    // How the model calls tools: natively, or with tool-call blocks in its text (models without
    // native tools). Unset: blocks for models known to lack native tools.
    toolCalling: z.enum(["native", "prompt"]).optional(),
    // The template the conversation was started from: its system prompt and starting messages.
    template: TemplateContext.optional(),
    // Models a step falls back to, in order, when the conversation's own provider is down
    // (unreachable, 5xx after the retries, a timeout).
    route: z.array(RouteModel).max(5).optional(),
    // How long a routed step waits for a model to send anything before it falls back
    // (default 60 s): a tunnel can accept the connection and never answer.
    routeTimeoutSeconds: z.number().int().min(1).max(600).optional(),
    // "Local first": steps that call tools go to the route's local model (Ollama) first, the
    // final answer to a cloud model first.
    localFirst: z.boolean().optional(),
    // The model that writes titles and summaries (unset: the cheap model of the first configured
    // provider among the conversation's own and its route's).
    housekeepingModel: RouteModel.optional(),
    // The rolling summary starts once the older messages pass this share of the window (default 25).
    summaryThresholdPercent: z.number().int().min(5).max(90).optional(),
  })
  .strict();
export type ConversationSettings = z.infer<typeof ConversationSettings>;
