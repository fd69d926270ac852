// Tool calls waiting for the user. A request is a row in the DO's SQLite, like a checkpoint: the
// run that asked ends, the object may sleep or restart, and the answer (WebSocket, REST, or the
// expiry schedule) is stored here before the turn resumes from its checkpoint at that call.
import { positiveSetting } from "../../shared/positive-setting";
import type { ApprovalGate, ApprovalState, CatalogTool } from "../loop/types";
import { BUILTIN_SERVER } from "../protocol/conversation-settings";
import { resolvePolicy, type ToolPolicies } from "../protocol/tool-policy";
import type { ApprovalAnswer, NewServerEvent, ServerEvent } from "../protocol/wire";

/** Unanswered approvals expire (as denied) after this long unless configured otherwise. */
export const DEFAULT_APPROVAL_TTL_SECONDS = 24 * 3600;

export type DecidedVia = "websocket" | "rest" | "expiry" | "cancel";

export interface ApprovalRow {
  id: string;
  turnId: string;
  messageId: string;
  callId: string;
  step: number;
  userId: string;
  server: string;
  tool: string;
  arguments: unknown;
  requestedAt: number;
  expiresAt: number;
  status: "pending" | "approved" | "denied";
  note: string | null;
  decidedVia: DecidedVia | null;
  decidedBy: string | null;
  decidedAt: number | null;
}

type RawRow = {
  id: string;
  turn_id: string;
  message_id: string;
  call_id: string;
  step: number;
  user_id: string;
  server: string;
  tool: string;
  arguments: string;
  requested_at: number;
  expires_at: number;
  status: ApprovalRow["status"];
  note: string | null;
  decided_via: DecidedVia | null;
  decided_by: string | null;
  decided_at: number | null;
};

export class ApprovalStore {
  /** `sql` has the table (schema.ts). */
  constructor(private readonly sql: SqlStorage) {}

  add(row: Omit<ApprovalRow, "status" | "note" | "decidedVia" | "decidedBy" | "decidedAt">): void {
    this.sql.exec(
      `INSERT INTO conv_approvals (id, turn_id, message_id, call_id, step, user_id, server, tool,
         arguments, requested_at, expires_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
      row.id,
      row.turnId,
      row.messageId,
      row.callId,
      row.step,
      row.userId,
      row.server,
      row.tool,
      JSON.stringify(row.arguments ?? null),
      row.requestedAt,
      row.expiresAt,
    );
  }

  byId(id: string): ApprovalRow | null {
    return this.where("id = ?", id)[0] ?? null;
  }

  forCall(turnId: string, callId: string, step: number): ApprovalRow | null {
    return (
      this.where(
        "turn_id = ? AND call_id = ? AND step = ? ORDER BY rowid DESC",
        turnId,
        callId,
        step,
      )[0] ?? null
    );
  }

  pending(turnId: string): ApprovalRow[] {
    return this.where("turn_id = ? AND status = 'pending'", turnId);
  }

  decide(id: string, approve: boolean, note: string | null, via: DecidedVia, by: string | null) {
    this.sql.exec(
      "UPDATE conv_approvals SET status = ?, note = ?, decided_via = ?, decided_by = ?, decided_at = ? WHERE id = ? AND status = 'pending'",
      approve ? "approved" : "denied",
      note,
      via,
      by,
      Date.now(),
      id,
    );
  }

  private where(clause: string, ...bindings: (string | number)[]): ApprovalRow[] {
    return this.sql
      .exec<RawRow>(`SELECT * FROM conv_approvals WHERE ${clause}`, ...bindings)
      .toArray()
      .map((r) => ({
        id: r.id,
        turnId: r.turn_id,
        messageId: r.message_id,
        callId: r.call_id,
        step: r.step,
        userId: r.user_id,
        server: r.server,
        tool: r.tool,
        arguments: JSON.parse(r.arguments) as unknown,
        requestedAt: r.requested_at,
        expiresAt: r.expires_at,
        status: r.status,
        note: r.note,
        decidedVia: r.decided_via,
        decidedBy: r.decided_by,
        decidedAt: r.decided_at,
      }));
  }
}

/** The gate a turn's loop asks: policies of this conversation and user, stored approvals. */
export function approvalGate(opts: {
  approvals: ApprovalStore;
  turnId: string;
  messageId: string;
  userId: string;
  conversationPolicies: ToolPolicies | undefined;
  /** The owner's policies as they are now (Settings may change them during the turn). */
  userPolicies: () => ToolPolicies;
  ttlSeconds: number;
  emit: (e: NewServerEvent) => void;
  /** Arranges for `expireApproval(id)` to run at `expiresAt` (the agents schedule API). */
  scheduleExpiry: (approvalId: string, expiresAt: number) => void;
}): ApprovalGate {
  return {
    policy: (t: CatalogTool) =>
      resolvePolicy({
        server: t.server,
        tool: t.tool,
        hints: t.annotations,
        builtin: t.server === BUILTIN_SERVER,
        conversation: opts.conversationPolicies,
        user: opts.userPolicies(),
      }),
    state(callId, step): ApprovalState {
      const row = opts.approvals.forCall(opts.turnId, callId, step);
      if (!row) return { status: "none" };
      if (row.status === "pending") return { status: "pending" };
      return {
        status: "decided",
        decision: row.status === "approved" ? "approve" : "deny",
        ...(row.note && { note: row.note }),
        ...(row.decidedVia === "expiry" && { expired: true }),
      };
    },
    request(call) {
      const id = crypto.randomUUID();
      const requestedAt = Date.now();
      const expiresAt = requestedAt + opts.ttlSeconds * 1000;
      opts.approvals.add({
        id,
        turnId: opts.turnId,
        messageId: opts.messageId,
        userId: opts.userId,
        requestedAt,
        expiresAt,
        ...call,
      });
      opts.emit({
        type: "approval_requested",
        turnId: opts.turnId,
        messageId: opts.messageId,
        approvalId: id,
        expiresAt,
        ...call,
      });
      opts.scheduleExpiry(id, expiresAt);
    },
  };
}

export type DecideResult =
  | { ok: true; approval: ApprovalRow }
  | { ok: false; code: "not_found" | "already_decided"; message: string };

/** Stores a decision once and tells every client; the caller resumes the turn. */
export function decide(
  approvals: ApprovalStore,
  emit: (e: NewServerEvent) => ServerEvent,
  approvalId: string,
  answer: ApprovalAnswer,
  by: { via: DecidedVia; userId?: string },
): DecideResult {
  const row = approvals.byId(approvalId);
  if (!row)
    return {
      ok: false,
      code: "not_found",
      message: "There is no such approval in this conversation.",
    };
  if (row.status !== "pending")
    return { ok: false, code: "already_decided", message: settledApproval(row) };
  const note = answer.note?.trim() || null;
  // The WebSocket is the owner's (it authenticated at the handshake); expiry and cancel are no one's.
  const userId = by.userId ?? (by.via === "websocket" ? row.userId : undefined);
  approvals.decide(approvalId, answer.decision === "approve", note, by.via, userId ?? null);
  emit({
    type: "approval_decided",
    turnId: row.turnId,
    messageId: row.messageId,
    approvalId,
    callId: row.callId,
    decision: answer.decision,
    ...(note && { note }),
    by: { via: by.via, ...(userId && { userId }) },
    ...(answer.remember !== undefined && { remembered: answer.remember }),
  });
  return { ok: true, approval: approvals.byId(approvalId)! };
}

/** How long approvals of this conversation wait: its setting, else the deployment's, else 24 h. */
export function approvalTtlSeconds(
  envValue: string | undefined,
  setting: number | undefined,
): number {
  return (
    setting ?? positiveSetting("APPROVAL_TTL_SECONDS", envValue) ?? DEFAULT_APPROVAL_TTL_SECONDS
  );
}

/** Withdraws a parked turn's open approvals (the user cancelled it); false if none was open. */
export function cancelParkedTurn(
  approvals: ApprovalStore,
  turn: { id: string },
  emit: (e: NewServerEvent) => ServerEvent,
): boolean {
  const open = approvals.pending(turn.id);
  for (const a of open)
    decide(
      approvals,
      emit,
      a.id,
      { decision: "deny", note: "the turn was cancelled" },
      { via: "cancel" },
    );
  return open.length > 0;
}

/**
 * Why an approval can no longer be answered: someone answered it, it expired, or was withdrawn.
 * `who`: the person who answered, in words (see answered-by.ts), when known.
 */
export function settledApproval(row: ApprovalRow, who?: string | null): string {
  if (row.decidedVia === "expiry")
    return "This approval expired: nobody answered in time, so the call was denied.";
  if (row.decidedVia === "cancel")
    return "This approval was withdrawn: the answer was stopped, so the call did not run.";
  return `This approval was already answered: ${row.status}${who ? ` by ${who}` : ""}.`;
}
