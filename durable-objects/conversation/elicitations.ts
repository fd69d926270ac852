// Questions an MCP server asks the user while one of its tool calls runs (`elicitation/create`).
// Unlike an approval, the server is waiting inside the open call, so the call is kept open while
// the user answers, for at most a timeout (10 min unless configured), after which the server is
// told `cancel`. The question is a row in the DO's SQLite, so every tab and SSE client sees it
// (`elicitation_requested`) and any of them, or REST, may answer (`elicitation_answered`). The
// wait itself lives in memory: a restart loses the open call, so questions left pending at start
// are withdrawn (cancelled) and recovery reports the call as interrupted.
import { positiveSetting } from "../../shared/positive-setting";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  checkContent,
  type ElicitationAction,
  type ElicitationAnswer,
  type ElicitationContent,
  ElicitationSchema,
} from "../protocol/elicitation";
import type { NewServerEvent, ServerEvent } from "../protocol/wire";

/** How long a tool call waits for the user's answer unless configured otherwise. */
export const DEFAULT_ELICITATION_TIMEOUT_SECONDS = 10 * 60;

export type AnsweredVia = "websocket" | "rest" | "timeout" | "cancel" | "restart" | "server";

export interface ElicitationRow {
  id: string;
  turnId: string;
  messageId: string;
  callId: string;
  userId: string;
  server: string;
  tool: string;
  mode: "form" | "url";
  requestedSchema: ElicitationSchema | null;
  serverElicitationId: string | null;
  status: "pending" | ElicitationAction;
  answeredVia: AnsweredVia | null;
  answeredBy: string | null;
}

type RawRow = {
  id: string;
  turn_id: string;
  message_id: string;
  call_id: string;
  user_id: string;
  server: string;
  tool: string;
  mode: "form" | "url";
  requested_schema: string | null;
  server_elicitation_id: string | null;
  status: ElicitationRow["status"];
  answered_via: AnsweredVia | null;
  answered_by: string | null;
};

/** Where a question comes from: the turn, and the call on whose behalf the server asks. */
export interface AskContext {
  turnId: string;
  messageId: string;
  userId: string;
  callId: string;
  server: string;
  tool: string;
  timeoutSeconds: number;
}

export type AnswerResult =
  | { ok: true; elicitation: ElicitationRow }
  | {
      ok: false;
      code: "not_found" | "already_answered" | "invalid_content" | "gone";
      message: string;
    };

export class Elicitations {
  /** The open calls' waits, by elicitation id: only this instance of the object can end them. */
  readonly #waiting = new Map<string, (answer: ElicitResult) => void>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly emit: (e: NewServerEvent) => ServerEvent,
  ) {}

  /** Asks the user on behalf of a running call; resolves with what the server is sent back. */
  ask(
    ctx: AskContext,
    params: ElicitRequest["params"],
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const mode = params.mode === "url" ? "url" : "form";
    let schema: ElicitationSchema | null = null;
    let url: string | null = null;
    if (params.mode === "url") {
      url = params.url;
      if (!isWebAddress(url)) {
        this.emit({
          type: "notice",
          level: "warning",
          message: `The MCP server '${ctx.server}' asked you to open a link that is not a web address (${url.slice(0, 100)}); it was refused.`,
        });
        return invalidParams("Only http and https URLs can be opened.");
      }
    } else {
      const parsed = ElicitationSchema.safeParse(params.requestedSchema);
      if (!parsed.success)
        return invalidParams(
          `This client cannot show the requested form: ${parsed.error.issues[0]?.message ?? "unsupported schema"}.`,
        );
      schema = parsed.data;
    }
    const id = crypto.randomUUID();
    const requestedAt = Date.now();
    const expiresAt = requestedAt + ctx.timeoutSeconds * 1000;
    this.sql.exec(
      `INSERT INTO conv_elicitations (id, turn_id, message_id, call_id, user_id, server, tool, mode,
         message, requested_schema, url, server_elicitation_id, requested_at, expires_at, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
      id,
      ctx.turnId,
      ctx.messageId,
      ctx.callId,
      ctx.userId,
      ctx.server,
      ctx.tool,
      mode,
      params.message,
      schema && JSON.stringify(schema),
      url,
      params.mode === "url" ? params.elicitationId : null,
      requestedAt,
      expiresAt,
    );
    this.emit({
      type: "elicitation_requested",
      turnId: ctx.turnId,
      messageId: ctx.messageId,
      elicitationId: id,
      callId: ctx.callId,
      server: ctx.server,
      tool: ctx.tool,
      mode,
      message: params.message,
      ...(schema && { requestedSchema: schema }),
      ...(url !== null && { url }),
      expiresAt,
    });
    return new Promise<ElicitResult>((resolve) => {
      const timer = setTimeout(
        () => this.settle(id, { action: "cancel" }, { via: "timeout" }),
        expiresAt - requestedAt,
      );
      // The turn was cancelled, the call ended, or the server withdrew its question.
      const withdrawn = () => this.settle(id, { action: "cancel" }, { via: "cancel" });
      signal.addEventListener("abort", withdrawn, { once: true });
      this.#waiting.set(id, (answer) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", withdrawn);
        resolve(answer);
      });
      if (signal.aborted) withdrawn();
    });
  }

  /** A person's answer (any tab, or REST): checked against the form, stored, sent to the server. */
  answer(
    id: string,
    answer: ElicitationAnswer,
    by: { via: "websocket" | "rest"; userId?: string },
  ): AnswerResult {
    const row = this.byId(id);
    if (!row)
      return {
        ok: false,
        code: "not_found",
        message: "There is no such question in this conversation.",
      };
    if (row.status !== "pending")
      return {
        ok: false,
        code: "already_answered",
        message: settledQuestion(row),
      };
    if (!this.#waiting.has(id)) {
      this.record(row, "cancel", undefined, "restart", null);
      return {
        ok: false,
        code: "gone",
        message: "The tool call that asked is no longer running, so the question was withdrawn.",
      };
    }
    let content: ElicitationContent | undefined;
    if (answer.action === "accept" && row.mode === "form" && row.requestedSchema) {
      const checked = checkContent(row.requestedSchema, answer.content ?? {});
      if (!checked.ok)
        return {
          ok: false,
          code: "invalid_content",
          message: `The answer does not fit the form: ${checked.problems.join("; ")}. Correct it and answer again.`,
        };
      content = checked.content;
    }
    const userId = by.userId ?? row.userId;
    this.settle(id, { action: answer.action, ...(content && { content }) }, { ...by, userId });
    return { ok: true, elicitation: this.byId(id)! };
  }

  /** The server says the user finished its web page (`notifications/elicitation/complete`). */
  completed(server: string, serverElicitationId: string): void {
    const row = this.sql
      .exec<{ id: string }>(
        "SELECT id FROM conv_elicitations WHERE server = ? AND server_elicitation_id = ? AND status = 'pending'",
        server,
        serverElicitationId,
      )
      .toArray()[0];
    if (row) this.settle(row.id, { action: "accept" }, { via: "server" });
  }

  /** At start: questions still pending belonged to calls the restart cut off. */
  withdrawLeftovers(): void {
    for (const row of this.where("status = 'pending'"))
      this.record(row, "cancel", undefined, "restart", null);
  }

  byId(id: string): ElicitationRow | null {
    return this.where("id = ?", id)[0] ?? null;
  }

  private settle(
    id: string,
    answer: ElicitResult,
    by: { via: AnsweredVia; userId?: string | undefined },
  ): void {
    const row = this.byId(id);
    const resolve = this.#waiting.get(id);
    if (!row || row.status !== "pending" || !resolve) return;
    this.#waiting.delete(id);
    this.record(row, answer.action, answer.content, by.via, by.userId ?? null);
    resolve(answer);
  }

  private record(
    row: ElicitationRow,
    action: ElicitationAction,
    content: ElicitResult["content"],
    via: AnsweredVia,
    userId: string | null,
  ): void {
    this.sql.exec(
      "UPDATE conv_elicitations SET status = ?, content = ?, answered_via = ?, answered_by = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
      action,
      content ? JSON.stringify(content) : null,
      via,
      userId,
      Date.now(),
      row.id,
    );
    this.emit({
      type: "elicitation_answered",
      turnId: row.turnId,
      messageId: row.messageId,
      elicitationId: row.id,
      callId: row.callId,
      action,
      ...(content && { content }),
      by: { via, ...(userId && { userId }) },
    });
  }

  private where(clause: string, ...bindings: string[]): ElicitationRow[] {
    return this.sql
      .exec<RawRow>(`SELECT * FROM conv_elicitations WHERE ${clause}`, ...bindings)
      .toArray()
      .map((r) => ({
        id: r.id,
        turnId: r.turn_id,
        messageId: r.message_id,
        callId: r.call_id,
        userId: r.user_id,
        server: r.server,
        tool: r.tool,
        mode: r.mode,
        requestedSchema: r.requested_schema
          ? ElicitationSchema.parse(JSON.parse(r.requested_schema))
          : null,
        serverElicitationId: r.server_elicitation_id,
        status: r.status,
        answeredVia: r.answered_via,
        answeredBy: r.answered_by,
      }));
  }
}

/** How long calls of this conversation wait for an answer: its setting, the deployment's, 10 min. */
export function elicitationTimeoutSeconds(
  envValue: string | undefined,
  setting: number | undefined,
): number {
  return (
    setting ??
    positiveSetting("ELICITATION_TIMEOUT_SECONDS", envValue) ??
    DEFAULT_ELICITATION_TIMEOUT_SECONDS
  );
}

function isWebAddress(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === "https:" || protocol === "http:";
}

/**
 * Refuses a server's request as the MCP SDK expects (an McpError). The SDK's types module builds
 * every MCP schema as it loads: it loads on a refusal, not when the conversation starts.
 */
async function invalidParams(message: string): Promise<never> {
  const { ErrorCode, McpError } = await import("@modelcontextprotocol/sdk/types.js");
  throw new McpError(ErrorCode.InvalidParams, message);
}

/**
 * Why a question can no longer be answered: someone answered it, it expired, or was withdrawn.
 * `who`: the person who answered, in words (see answered-by.ts), when known.
 */
export function settledQuestion(row: ElicitationRow, who?: string | null): string {
  switch (row.answeredVia) {
    case "timeout":
      return "This question expired: nobody answered in time.";
    case "cancel":
      return "This question was withdrawn: the answer was stopped, or the tool call that asked ended.";
    case "restart":
      return "This question was withdrawn: the tool call that asked was cut off by a restart.";
    case "server":
      return "This question was already completed at the MCP server's own page.";
    default:
      return `This question was already answered (${row.status})${who ? ` by ${who}` : ""}.`;
  }
}
