// The conversation's audit log, in order: each model request (provider, model, sizes, settings;
// the full request only when the operator sets AUDIT_FULL_REQUESTS), each response summary,
// each tool call with its arguments, its result summary and duration, and each approval with
// who decided. Kept in the Durable Object's SQLite, so deleting the conversation deletes it.
import type { ModelRequest, NeutralMessage, ProviderId } from "../providers/types";
import type { ServerEvent } from "../protocol/wire";
import { auditedRequest } from "./audit-request";

export interface ModelResponseSummary {
  /** The model that answered (a fallback's, when the route moved on). */
  provider?: ProviderId;
  model?: string;
  textChars: number;
  reasoningChars: number;
  toolCalls: string[];
  error?: { code: string; message: string };
}

/**
 * `JSON.stringify(m).length`, with the base64 of images and PDFs counted rather than copied into
 * the JSON (megabytes per attached file, every turn); base64 has nothing JSON escapes.
 */
function messageChars(m: NeutralMessage): number {
  let data = 0;
  const content = m.content.map((part) => {
    if (part.type !== "image" && part.type !== "document") return part;
    data += part.data.length;
    return { ...part, data: "" };
  });
  return JSON.stringify(data > 0 ? { ...m, content } : m).length + data;
}

export class AuditLog {
  /** `sql` has the table (schema.ts). */
  constructor(
    private readonly sql: SqlStorage,
    private readonly fullRequests: boolean,
  ) {}

  private add(entry: Record<string, unknown>, at = Date.now()): void {
    this.sql.exec("INSERT INTO conv_audit (at, entry) VALUES (?, ?)", at, JSON.stringify(entry));
  }

  modelRequest(turnId: string, step: number, provider: ProviderId, request: ModelRequest): void {
    const { signal: _signal, ...body } = request;
    this.add({
      kind: "model_request",
      turnId,
      step,
      provider,
      model: request.model,
      messages: request.messages.length,
      tools: request.tools?.length ?? 0,
      requestChars: this.requestChars(body),
      settings: {
        toolChoice: request.toolChoice ?? "auto",
        ...(request.maxTokens !== undefined && { maxTokens: request.maxTokens }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
        ...(request.reasoningEffort && { reasoningEffort: request.reasoningEffort }),
      },
      ...(this.fullRequests && { request: auditedRequest(body) }),
    });
  }

  /** Each message's length as JSON once measured: a turn's steps send the same messages again. */
  readonly #messageChars = new WeakMap<object, number>();

  /**
   * The length of the request as JSON, `JSON.stringify(body).length`, without serializing again
   * the messages an earlier step of the turn sent (the whole history, at every step).
   */
  private requestChars(body: Omit<ModelRequest, "signal">): number {
    const { messages } = body;
    // The array's brackets are in the rest; its commas are one fewer than its messages.
    let chars = JSON.stringify({ ...body, messages: [] }).length + Math.max(0, messages.length - 1);
    for (const m of messages) {
      let n = this.#messageChars.get(m);
      if (n === undefined) this.#messageChars.set(m, (n = messageChars(m)));
      chars += n;
    }
    return chars;
  }

  modelResponse(turnId: string, step: number, summary: ModelResponseSummary): void {
    this.add({ kind: "model_response", turnId, step, ...summary });
  }

  /** Tool calls, their results and approvals come from the events the turn emits anyway. */
  event(e: ServerEvent): void {
    switch (e.type) {
      case "tool_call":
        return this.add(
          {
            kind: "tool_call",
            step: e.step,
            callId: e.callId,
            server: e.server,
            tool: e.tool,
            arguments: e.arguments,
          },
          e.at,
        );
      case "tool_result": {
        const started = this.callStartedAt(e.callId);
        return this.add(
          {
            kind: "tool_result",
            callId: e.callId,
            isError: e.isError,
            summary: e.summary,
            ...(started !== null && { durationMs: e.at - started }),
          },
          e.at,
        );
      }
      case "approval_requested":
        return this.add(
          {
            kind: "approval_requested",
            turnId: e.turnId,
            approvalId: e.approvalId,
            callId: e.callId,
            server: e.server,
            tool: e.tool,
          },
          e.at,
        );
      case "approval_decided":
        return this.add(
          {
            kind: "approval_decided",
            turnId: e.turnId,
            approvalId: e.approvalId,
            callId: e.callId,
            decision: e.decision,
            by: e.by,
            ...(e.note !== undefined && { note: e.note }),
          },
          e.at,
        );
      default:
        return;
    }
  }

  private callStartedAt(callId: string): number | null {
    const row = this.sql
      .exec<{ at: number }>(
        "SELECT at FROM conv_audit WHERE json_extract(entry, '$.kind') = 'tool_call' AND json_extract(entry, '$.callId') = ? ORDER BY seq DESC LIMIT 1",
        callId,
      )
      .toArray()[0];
    return row?.at ?? null;
  }

  /** Every entry as JSON Lines, oldest first, each with its time. */
  jsonLines(): string {
    return this.sql
      .exec<{ at: number; entry: string }>("SELECT at, entry FROM conv_audit ORDER BY seq")
      .toArray()
      .map((r) => JSON.stringify({ at: new Date(r.at).toISOString(), ...JSON.parse(r.entry) }))
      .map((line) => `${line}\n`)
      .join("");
  }
}
