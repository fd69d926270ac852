// Where a step's time went: its model calls (time to first token, stream time, retries and their
// waits), its tool calls (latency, per call and per server), checkpoints and pauses. Sent in the
// `step_timings` event when a step ends, and returned by GET /api/conversations/:id/timings.
import { z } from "zod";

const Ms = z.number().min(0);

/** A retry of a model call: the error that caused it and how long the loop waited before it. */
export const ModelRetry = z.object({
  attempt: z.number().int().min(1),
  code: z.string(),
  waitMs: Ms,
});
export type ModelRetry = z.infer<typeof ModelRetry>;

export const ModelCallTimings = z.object({
  /** The model that answered (a fallback's when the route moved on). */
  provider: z.string(),
  model: z.string(),
  /** From the request to its first text, reasoning or tool call (retries included); null: none came. */
  firstTokenMs: Ms.nullable(),
  /** From the first token to the end of the stream. */
  streamMs: Ms,
  retries: z.array(ModelRetry),
});
export type ModelCallTimings = z.infer<typeof ModelCallTimings>;

export const ToolCallTimings = z.object({
  callId: z.string(),
  server: z.string(),
  tool: z.string(),
  /** From the call to its result, as the loop waited for it. */
  latencyMs: Ms,
});
export type ToolCallTimings = z.infer<typeof ToolCallTimings>;

/** The step's tool calls to one MCP server, added up. */
export const ServerLatency = z.object({
  server: z.string(),
  calls: z.number().int().min(1),
  totalMs: Ms,
  maxMs: Ms,
});
export type ServerLatency = z.infer<typeof ServerLatency>;

export const StepTimings = z.object({
  step: z.number().int().min(0),
  /** The forced answer after the last step (the response_formatter), not a step of its own. */
  answer: z.boolean().optional(),
  /** First step only: from the user's send to the turn's start (waiting behind another turn). */
  queuedMs: Ms.optional(),
  /** First step only: listing the tools of the MCP servers. */
  catalogMs: Ms.optional(),
  /** One per model call of the step (a formatter repair adds one). */
  model: z.array(ModelCallTimings),
  tools: z.array(ToolCallTimings),
  servers: z.array(ServerLatency),
  /** Saving the step's checkpoints. */
  checkpointMs: Ms,
  /**
   * Time the step stood still after a checkpoint: parked at an approval, or cut by a restart
   * (the checkpoint it stopped at counts here, not in `checkpointMs`).
   */
  pausedMs: Ms,
  /** From the step's start to its end, pauses included. */
  totalMs: Ms,
});
export type StepTimings = z.infer<typeof StepTimings>;

/** The body of `GET /api/conversations/:id/timings`: every step's timings, oldest first. */
export const ConversationTimings = z.object({
  steps: z.array(
    z.object({
      turnId: z.string(),
      messageId: z.string(),
      at: z.number(),
      timings: StepTimings,
    }),
  ),
});
export type ConversationTimings = z.infer<typeof ConversationTimings>;
