// What the thinking loop needs from the world, as interfaces: the DO supplies the implementations.
import type { MessagePart } from "../protocol/messages";
import type { NewServerEvent } from "../protocol/wire";
import type { ModelProvider, NeutralMessage, StreamEvent, ModelRequest } from "../providers/types";
import type { KnowledgeGraph } from "./knowledge-graph";
import type { DraftArtifact, ProcessedResult } from "./tool-results";

export interface CatalogTool {
  server: string;
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
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
   * Every tool the model may use this turn; servers that failed are named in `warnings`, those
   * skipped until the user signs in in `signIns`.
   */
  catalog(): Promise<{ tools: CatalogTool[]; warnings: string[]; signIns?: SignInNeeded[] }>;
  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    hooks: {
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
  result?: Pick<ProcessedResult, "forModel" | "summary" | "isError">;
}

/** Durable memory of tool calls across the conversation (for repeats and for resuming). */
export interface ToolCallLog {
  findDone(key: string): ToolCallRecord | null;
  find(id: string): ToolCallRecord | null;
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

export interface LoopState {
  step: number;
  messages: NeutralMessage[];
  text: string;
  reasoning: string;
  toolParts: Extract<MessagePart, { type: "tool_call" }>[];
  artifactParts: Extract<MessagePart, { type: "artifact" }>[];
  graphs: KnowledgeGraph[];
  noProgressSteps: number;
  formatterRepairs: number;
  /** Set when the answer is final; the loop returns it without another model call. */
  final?: MessagePart[];
}

export interface LoopDeps {
  provider: ModelProvider;
  /** Streams with the retry policy (retries only before any output reached the user). */
  stream: (provider: ModelProvider, request: ModelRequest) => AsyncIterable<StreamEvent>;
  tools: ToolRunner;
  calls: ToolCallLog;
  toolNames: {
    toSafe(server: string, tool: string): string;
    fromSafe(name: string): { server: string; tool: string } | undefined;
  };
  saveArtifact: (draft: DraftArtifact, source: ArtifactSource) => Promise<ArtifactRef>;
  checkpoint: (state: LoopState) => void;
  emit: (event: NewServerEvent) => void;
  recordUsage: (u: { inputTokens: number; outputTokens: number; cachedTokens: number }) => void;
  /** Counts model calls (figures for the bench). */
  onModelCall?: () => void;
}

export interface LoopInput {
  turnId: string;
  messageId: string;
  model: string;
  system: string;
  history: NeutralMessage[];
  maxSteps: number;
  temperature?: number;
  maxTokens: number;
  signal: AbortSignal;
}

export interface LoopOutcome {
  content: MessagePart[];
  status: "complete" | "cancelled" | "failed";
  error?: { code: string; message: string };
}
