// What the thinking loop needs from the world, as interfaces: the DO supplies the implementations.
import type { MessagePart } from "../protocol/messages";
import type { ToolHints, ToolPolicy } from "../protocol/tool-policy";
import type { ErrorInfo, NewServerEvent } from "../protocol/wire";
import type {
  ModelProvider,
  ModelRequest,
  NeutralMessage,
  NeutralPart,
  ReasoningEffort,
  StreamEvent,
  ToolDefinition,
} from "../providers/types";
import type { CallUsage, UsageTotals } from "../protocol/usage";
import type { KnowledgeGraph } from "./knowledge-graph";
import type { BudgetStop, TurnBudgets } from "./budgets";
import type { PriceTable } from "./prices";
import type { StepTimer, StepTimingsDraft } from "./step-timings";
import type { DraftArtifact, ProcessedResult } from "./tool-results";

export interface CatalogTool {
  server: string;
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's annotations of the tool: they decide whether a call asks first. */
  annotations?: ToolHints;
}

/** A server skipped this turn because the user has to sign in (again); `message` says so. */
export interface SignInNeeded {
  serverId: string;
  serverName: string;
  message: string;
}

export type ToolCallOutcome =
  { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

export interface ToolRunner {
  /**
   * Every tool the model may use this turn; servers that failed are named in `warnings` (once a
   * turn: a catalog read again says only what is new), those skipped until the user signs in in
   * `signIns`.
   */
  catalog(): Promise<{
    tools: CatalogTool[];
    /**
     * Tools not offered, of servers skipped for their failures (or whose list, offered earlier in
     * the turn, could not be read again): a call the model makes to one anyway (it saw it
     * earlier) still reaches `call`, which answers it, rather than being taken for a tool that
     * does not exist.
     */
    known?: CatalogTool[];
    warnings: string[];
    signIns?: SignInNeeded[];
  }>;
  /**
   * A server said its tools changed (`notifications/tools/list_changed`) since the latest
   * catalog(): the turn's next step reads the catalog again, so a tool a call just added can be
   * used in the same turn.
   */
  changed?(): boolean;
  /**
   * Why a server's calls are not made now (it reached its failure limit), or null. Such a call is
   * answered at once by `call`, so none waits for the user's approval first.
   */
  skipped?(server: string): string | null;
  /**
   * The servers that answered again, since the last time this was asked, after they had been
   * skipped for their failures: the user is told they are back.
   */
  backAgain?(): string[];
  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    hooks: {
      /** The call's id in the timeline (a server's question during the call is shown with it). */
      callId: string;
      signal: AbortSignal;
      onProgress: (p: { progress: number; total?: number; message?: string }) => void;
      onLog: (l: { level: string; data: unknown }) => void;
    },
  ): Promise<ToolCallOutcome>;
}

export interface ToolCallRecord {
  id: string;
  key: string;
  server: string;
  tool: string;
  arguments: unknown;
  /** "error": the call never reached a result (transport, timeout); unlike "failed" it may be tried again. */
  status: "started" | "done" | "failed" | "error";
  result?: Pick<ProcessedResult, "forModel" | "summary" | "isError"> & {
    /** The artifacts the result was saved as: a shortened copy of it points to them. */
    artifacts?: Array<Pick<ArtifactRef, "id" | "title">>;
  };
}

/** Durable memory of tool calls across the conversation (for repeats and for resuming). */
export interface ToolCallLog {
  /** The latest successful call with this key: failed, timed-out and interrupted ones are not reused. */
  findDone(key: string): ToolCallRecord | null;
  find(id: string): ToolCallRecord | null;
  /** The recorded ids that are `id` or `id` with a suffix (`id_2`, …): see unused-call-id.ts. */
  idsLike(id: string): string[];
  start(record: Omit<ToolCallRecord, "status" | "result">, turnId: string, step: number): void;
  finish(id: string, status: "done" | "failed" | "error", result: ToolCallRecord["result"]): void;
}

export interface ArtifactRef {
  id: string;
  type: string;
  title: string;
}

export interface ArtifactSource {
  server?: string;
  tool?: string;
  arguments?: unknown;
  step: number;
  origin: "formatter" | "tool";
}

/** A tool call as the model made it, before it is run. */
export interface PlannedToolCall {
  id: string;
  name: string;
  arguments: unknown;
  argumentsError?: string;
  /** Gemini's thought signature: the call goes back into the history with it. */
  signature?: string;
  /**
   * The model's output reached its max tokens while it wrote this call: its arguments are cut
   * off (perhaps mended into valid JSON by the provider), so the call is not run.
   */
  cut?: boolean;
}

/** A tool call's answer for the model, and whether it was new information (not a repeat). */
export interface CallAnswer {
  part: Extract<NeutralPart, { type: "tool_result" }>;
  fresh: boolean;
  /** Why the call could not be used at all (unknown tool, arguments that fail the schema). */
  unusable?: string;
}

export interface LoopState {
  step: number;
  messages: NeutralMessage[];
  /**
   * What the user was shown of the steps so far, in order: reasoning, text and tool calls. It is
   * the answer's body whatever way the turn ends, so nothing streamed is dropped from it.
   */
  shown: Extract<MessagePart, { type: "reasoning" | "text" | "tool_call" }>[];
  artifactParts: Extract<MessagePart, { type: "artifact" }>[];
  graphs: KnowledgeGraph[];
  noProgressSteps: number;
  /** Hashes of the results of each step so far: a step that repeats one made no progress. */
  resultHashes?: string[];
  /** Tools the model loaded with find_tools: offered from the next step on, whatever the cap. */
  loadedTools?: string[];
  formatterRepairs: number;
  /**
   * The step whose model call is over but whose tool calls are not all answered. Checkpointed
   * with each answer, so a resumed turn continues at the calls without calling the model again.
   */
  pending?: { calls: PlannedToolCall[]; answers: Record<string, CallAnswer> };
  /** Set when the answer is final; the loop returns it without another model call. */
  final?: MessagePart[];
  /** The turn's usage so far (absent in checkpoints written before usage was metered). */
  usage?: UsageTotals;
  /** How long the turn has run, waits for approvals excluded (see budgets.ts). */
  elapsedMs?: number;
  /**
   * The longest model call of the turn so far: the time budget keeps room for the wrap-up call a
   * stopped turn makes, which it expects to take as long.
   */
  longestCallMs?: number;
  /** What was spent when the current step began: budgets project the next step from it. */
  stepStart?: { tokens: number; costUsd: number; elapsedMs: number };
  /** The budget that ended the loop; the answer says so. */
  stoppedBy?: BudgetStop;
  /** The provider ended the answer short; its last line says why (answer-end.ts). */
  cutShort?: CutShort;
  /** The current step's timings so far (see step-timings.ts). */
  timings?: StepTimingsDraft | undefined;
  /** Earlier messages left out when the turn began: a resumed turn's prompt still says so. */
  omittedMessages?: number;
  /**
   * Where the turn's own messages begin in `messages`: those before are the history it began
   * with, which checkpoints leave out (the conversation holds it).
   */
  turnFrom?: number;
  /** A checkpoint's state without the history: the loop assembles it again before going on. */
  historyLeftOut?: true;
}

/** Where a call that needs the user's approval stands. */
export type ApprovalState =
  | { status: "none" }
  | { status: "pending" }
  | { status: "decided"; decision: "approve" | "deny"; note?: string; expired?: boolean };

/** The user's say over tool calls: policies, and approvals that outlive the run that asked. */
export interface ApprovalGate {
  policy(tool: CatalogTool): ToolPolicy;
  state(callId: string, step: number): ApprovalState;
  /** Stores the request and tells every client; the call waits for the answer. */
  request(call: {
    callId: string;
    step: number;
    server: string;
    tool: string;
    arguments: unknown;
  }): void;
}

/** A model call under way, as noted for counting it should a restart cut it off. */
export interface CallUnderWay {
  step: number;
  model: string;
  /** The provider it was sent to, when not the conversation's own (a fallback's). */
  provider?: ModelProvider["id"];
  /** Its input as the context fitter counts it. */
  inputTokens: number;
  /** The ratio its output is to be estimated at, from the characters streamed. */
  charsPerToken: number;
}

export interface LoopDeps {
  provider: ModelProvider;
  /**
   * Streams with the retry policy (retries only before any output reached the user); `step`
   * names the step the call serves (a routed call says which model served it).
   */
  stream: (
    provider: ModelProvider,
    request: ModelRequest,
    step: number,
  ) => AsyncIterable<StreamEvent>;
  tools: ToolRunner;
  calls: ToolCallLog;
  toolNames: {
    toSafe(server: string, tool: string): string;
    fromSafe(name: string): { server: string; tool: string } | undefined;
  };
  saveArtifact: (draft: DraftArtifact, source: ArtifactSource) => Promise<ArtifactRef>;
  checkpoint: (state: LoopState) => void;
  emit: (event: NewServerEvent) => void;
  /** Stores one model call's usage (the D1 usage row). */
  recordUsage: (
    u: CallUsage & { step: number; provider?: ModelProvider["id"]; model?: string },
  ) => void;
  /**
   * Notes the model call under way (its step, model and estimated input), or null once it is
   * counted or over: a call a restart cuts off is counted from the note when the turn resumes.
   */
  callUnderWay?: (call: CallUnderWay | null) => void;
  /**
   * The model the call under way was sent to (with a route, a fallback's or the local one), or
   * null before any: a call cut short before its provider's figures is counted as that model's.
   */
  attempting?: () => { provider: ModelProvider["id"]; model: string } | null;
  /**
   * The conversation's learned characters per token (DEFAULT_CHARS_PER_TOKEN without it): a call
   * cut short before its provider's count is estimated with it.
   */
  charsPerToken?: number;
  /** Prices of models; without it every call's cost is unknown. */
  prices?: PriceTable;
  /** Counts model calls (figures for the bench). */
  onModelCall?: () => void;
  /** Without it, every offered tool runs at once. */
  approvals?: ApprovalGate;
  /** The clock budgets are measured with (Date.now unless a test sets it). */
  now?: () => number;
  /** Fits the history into the model's window (see context-fit.ts); without it, all is sent. */
  fitContext?: (
    messages: NeutralMessage[],
    system: string,
    tools: ToolDefinition[],
  ) => {
    messages: NeutralMessage[];
    system: string;
    omittedMessages?: number;
    /** Estimated input tokens of a model call with this history, prompt and tools. */
    inputTokens?: number;
  };
  /** Records a summary of each model response (the audit log). */
  audit?: ModelAudit;
  /** Times each phase of each step (a new one per run unless the caller gives one). */
  stepTimer?: StepTimer;
  /** The conversation's route (step-route.ts): absent, every model may answer and none is set aside. */
  routing?: StepRouting;
}

export interface StepRouting {
  /** Whether the model that served `step` may give the final answer ("local first": no). */
  mayAnswer(step: number): boolean;
  /**
   * The step's tool calls that could not be used, one reason each (none: all could). True when
   * the model is set aside for them and the next step goes to another model.
   */
  noteUnusableCalls(step: number, reasons: string[]): boolean;
}

/** Requests are recorded by the stream (per model asked); the loop records each response. */
export interface ModelAudit {
  modelResponse(
    step: number,
    summary: {
      textChars: number;
      reasoningChars: number;
      toolCalls: string[];
      error?: ErrorInfo;
    },
  ): void;
}

export interface LoopInput {
  turnId: string;
  messageId: string;
  model: string;
  system: string;
  history: NeutralMessage[];
  /** Usage the turn had before it started (again, after a restart), counted in its budgets. */
  usedBefore?: UsageTotals;
  maxSteps: number;
  temperature?: number;
  maxTokens: number;
  /** How hard a reasoning model thinks (unset: the model's own default). */
  reasoningEffort?: ReasoningEffort;
  /** The window the history is fitted to, for a provider that must be told it (Ollama). */
  contextTokens?: number;
  signal: AbortSignal;
  /** Tokens, cost and time the turn may use (none: no limit but the step cap). */
  budgets?: TurnBudgets;
  /** Most characters of text and reasoning a turn may stream (default DEFAULT_ANSWER_CAP_CHARS). */
  answerCapChars?: number;
  /** Most tools offered in one step (default DEFAULT_MAX_TOOLS_PER_STEP); find_tools reaches the rest. */
  maxToolsPerStep?: number;
}

export interface LoopOutcome {
  content: MessagePart[];
  /** parked: a call waits for approval; the state is checkpointed and the turn resumes later. */
  status: "complete" | "cancelled" | "failed" | "parked";
  error?: ErrorInfo;
  /** A complete answer the provider ended short (answer-end.ts). */
  cutShort?: CutShort;
}

/** Why the provider ended an answer short of a whole one. */
export type CutShort = "length" | "content_filter";
