// Turns the events of one turn into what an OpenAI client shows: the answer's text as
// `content`, and the model's reasoning plus the turn's tool activity (calls, results, artifacts,
// notices) as `reasoning_content`, the field OpenAI-compatible clients show as thinking.
import { messageText } from "../../../../durable-objects/protocol/messages";
import type { UsageTotals } from "../../../../durable-objects/protocol/usage";
import type { ErrorInfo, ServerEvent } from "../../../../durable-objects/protocol/wire";
import type { TurnEnd } from "./turn-endings";

export interface OpenAiDelta {
  content?: string;
  reasoning_content?: string;
}

export type TurnStep =
  | { kind: "delta"; delta: OpenAiDelta }
  /** The answer as stored: its text parts, after any step a restart ran again. */
  | { kind: "completed"; text: string }
  /** complete, or cut short: cancelled or interrupted (turn-endings.ts says how each API tells it). */
  | ({ kind: "finished" } & TurnEnd)
  | { kind: "failed"; error: ErrorInfo };

/** Longest arguments shown for a tool call; the full call is in the conversation. */
const MAX_ARGUMENTS_SHOWN = 300;

const shorten = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** Follows the turn that answers the message sent with `clientMessageId`, ignoring any other. */
export class TurnToOpenAi {
  private userMessageId: string | undefined;
  private answerId: string | undefined;
  private turnId: string | undefined;
  private readonly tools = new Map<string, string>();
  /** The turn's tokens so far, every model call of every step (its usage_updated events). */
  usage: UsageTotals | null = null;

  constructor(
    private readonly conversationId: string,
    private readonly clientMessageId: string,
  ) {}

  /** What `event` adds to the answer, if anything. */
  step(event: ServerEvent): TurnStep | undefined {
    switch (event.type) {
      case "user_message":
        if (event.message.clientMessageId === this.clientMessageId)
          this.userMessageId = event.message.id;
        return undefined;
      case "turn_started":
        if (this.userMessageId && event.userMessageId === this.userMessageId) {
          this.answerId = event.messageId;
          this.turnId = event.turnId;
        }
        return undefined;
      case "turn_ended":
        return event.turnId === this.turnId
          ? {
              kind: "finished",
              status: event.status,
              ...(event.cutShort && { cutShort: event.cutShort }),
            }
          : undefined;
      case "turn_failed":
        return event.turnId === this.turnId ? { kind: "failed", error: event.error } : undefined;
      case "usage_updated":
        if (event.turnId === this.turnId) this.usage = event.turn;
        return undefined;
    }
    if (!this.answerId) return undefined;
    switch (event.type) {
      case "text_delta":
        return event.messageId === this.answerId
          ? { kind: "delta", delta: { content: event.delta } }
          : undefined;
      case "reasoning_delta":
        return event.messageId === this.answerId ? reasoning(event.delta) : undefined;
      case "message_completed":
        return event.messageId === this.answerId
          ? { kind: "completed", text: messageText(event.content) }
          : undefined;
      case "step_started":
        return event.turnId === this.turnId && event.step > 1
          ? reasoning(`\n\n[step ${event.step} of ${event.maxSteps}]\n`)
          : undefined;
      case "tool_call": {
        if (event.messageId !== this.answerId) return undefined;
        this.tools.set(event.callId, `${event.server} › ${event.tool}`);
        const args = shorten(JSON.stringify(event.arguments ?? {}), MAX_ARGUMENTS_SHOWN);
        return reasoning(`\n→ calling ${event.server} › ${event.tool} ${args}\n`);
      }
      case "tool_result": {
        const tool = this.tools.get(event.callId);
        if (!tool) return undefined;
        const outcome = event.isError ? "failed" : "returned";
        return reasoning(`← ${tool} ${outcome}: ${shorten(event.summary, 500)}\n`);
      }
      case "artifact_created":
        return event.messageId === this.answerId
          ? reasoning(
              `[artifact "${event.artifact.title}" (${event.artifact.type}): /api/artifacts/${event.artifact.id}]\n`,
            )
          : undefined;
      case "approval_requested":
        return event.turnId === this.turnId
          ? reasoning(
              `\n[${event.server} › ${event.tool} waits for your approval: answer it in the web client, or POST {"decision": "approve"} to /api/conversations/${this.conversationId}/approvals/${event.approvalId}]\n`,
            )
          : undefined;
      case "notice":
        return reasoning(`\n[${event.level}] ${event.message}\n`);
      default:
        return undefined;
    }
  }
}

const reasoning = (text: string): TurnStep => ({
  kind: "delta",
  delta: { reasoning_content: text },
});
