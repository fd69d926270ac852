// One turn: build the context (mode prompt, pinned artifacts, history), then run the thinking
// loop with the conversation's provider and tools. Storage stays in the DO; this file wires.
import { runThinkingLoop } from "../loop/loop";
import { type PinnedArtifact, systemPrompt } from "../loop/prompts";
import type {
  ApprovalGate,
  ArtifactRef,
  ArtifactSource,
  LoopDeps,
  LoopState,
  ToolCallLog,
  ToolRunner,
} from "../loop/types";
import type { DraftArtifact } from "../loop/tool-results";
import {
  type ChatMessage,
  type MessagePart,
  type MessageStatus,
  messageText,
} from "../protocol/messages";
import type { ConversationSettings } from "../protocol/conversation-settings";
import type { UsageTotals } from "../protocol/usage";
import type { ErrorInfo, NewServerEvent } from "../protocol/wire";
import { withReasoningRoom } from "../providers/reasoning-effort";
import { ENABLING_SETTINGS } from "../providers/registry";
import { retryNotice, streamWithRetries } from "../providers/retry";
import { buildToolNameMap } from "../providers/tool-names";
import type { ModelProvider, ModelRequest, ProviderId } from "../providers/types";
import type { Env } from "../../shared/env";
import { modelPrices } from "./model-prices";
import { turnBudgets } from "./turn-budgets";
import { type StoredResult, toNeutralHistory, toolCallIdsIn } from "./history";
import { contextFitter } from "../loop/context-fit";
import { modelWindow } from "../loop/context-budget";
import { detectLanguage, languageInstruction } from "../loop/language";
import { type StoredSummary, summaryPrompt } from "./summary";
import { templateMessages, templateSystemSection } from "./template-prompt";
import { routedStream } from "./model-route";
import { StepTimer } from "../loop/step-timings";
import { runnerHooks } from "../loop/runner-hooks";
import { auditedAttempts, type TurnAudit } from "./audited-attempts";
import { CallAttempts } from "./call-attempts";
import { attachmentConverter } from "./attachment-history";
import type { PdfTextCache } from "./attachment-loader";
import { unconfiguredProvider } from "../providers/unconfigured";
import { withAttachmentLinks } from "./attachment-link-tool";
import { type ProviderRefusals, turnProvider } from "./turn-provider";

export interface ConversationInfo {
  id: string;
  userId: string;
  provider: ProviderId;
  model: string;
  mode: "normal" | "graph" | "tools";
  settings: ConversationSettings;
}

export interface TurnInput extends ProviderRefusals {
  env: Env;
  turnId: string;
  conversation: ConversationInfo;
  assistantMessageId: string;
  /** Every message before this turn's answer, the new user message last. */
  history: ChatMessage[];
  pinned: PinnedArtifact[];
  maxSteps: number;
  signal: AbortSignal;
  tools: ToolRunner;
  calls: ToolCallLog;
  resumed?: LoopState;
  /** What the turn used before it started again without a checkpoint (calls a restart cut off). */
  usedBefore?: UsageTotals | undefined;
  emit: (event: NewServerEvent) => void;
  saveArtifact: (draft: DraftArtifact, source: ArtifactSource) => Promise<ArtifactRef>;
  checkpoint: (state: LoopState) => void;
  recordUsage: LoopDeps["recordUsage"];
  callUnderWay?: LoopDeps["callUnderWay"];
  audit?: TurnAudit;
  approvals?: ApprovalGate;
  /** The rolling summary of the messages before `history`, if there is one. */
  summary?: StoredSummary | null;
  /** The stored results of earlier turns' tool calls, by call id, for the history. */
  toolResults?: (callIds: readonly string[]) => ReadonlyMap<string, StoredResult>;
  /** Characters per token learned from this conversation's earlier calls to the model. */
  charsPerToken?: number;
  learnedCharsPerToken?: (ratio: number) => void;
  /** When the user sent the message this turn answers (the step timings' `queuedMs`). */
  queuedSince?: number;
  /** Where the API worker answers: links to attachments for tools point there. */
  apiBase?: string;
  /** The text of the history's PDFs, extracted once per conversation. */
  pdfTexts?: PdfTextCache;
}

export interface TurnOutcome {
  content: MessagePart[];
  /** parked: a call waits for the user's approval; the turn resumes when it is answered. */
  status: MessageStatus | "parked";
  error?: ErrorInfo;
  /** A complete answer the provider ended short (at max tokens, or by its filter). */
  cutShort?: "length" | "content_filter";
}

/** How a turn ended (a parked turn has not). */
export type FinalOutcome = TurnOutcome & { status: MessageStatus };

export const NOT_CONFIGURED_MESSAGE = (provider: ProviderId) => {
  const setting = ENABLING_SETTINGS[provider];
  return (
    `The ${provider} provider is not configured: set ${setting} in .dev.vars and restart ` +
    `\`npm start\` (locally), or with \`wrangler secret put ${setting}\` (deployed), or pick ` +
    "another provider in the conversation settings."
  );
};

export async function runTurn(input: TurnInput): Promise<TurnOutcome> {
  const { conversation } = input;
  const own = turnProvider(input.env, conversation, conversation.settings.toolCalling, input);
  const fallbacks = conversation.settings.route ?? [];
  // Without a key for its own provider, a conversation with a route goes to its fallbacks.
  if (!own && fallbacks.length === 0) {
    return {
      content: [],
      status: "failed",
      error: { code: "not_configured", message: NOT_CONFIGURED_MESSAGE(conversation.provider) },
    };
  }
  const provider =
    own ??
    unconfiguredProvider(conversation.provider, NOT_CONFIGURED_MESSAGE(conversation.provider));
  let names: ReturnType<typeof buildToolNameMap> | null = null;
  // The model may ask for a link to an attachment, to hand a file to a tool.
  const runner = withAttachmentLinks(input.tools, {
    env: input.env,
    history: input.history,
    apiBase: input.apiBase ?? "",
  });
  const tools: ToolRunner = {
    catalog: async () => {
      const result = await runner.catalog();
      // Known tools keep their names: a call to one is answered (as skipped), not unknown.
      const all = [...result.tools, ...(result.known ?? [])];
      names = buildToolNameMap(all.map((t) => ({ server: t.server, tool: t.tool })));
      return result;
    },
    call: (...args) => runner.call(...args),
    ...runnerHooks(runner),
  };
  const maxTokens = conversation.settings.maxTokens ?? 4096;
  const effort = conversation.settings.reasoningEffort;
  const timer = new StepTimer(
    input.queuedSince !== undefined ? { queuedSince: input.queuedSince } : {},
  );
  const contextWindow = modelWindow(conversation.provider, conversation.model, {
    contextTokens: conversation.settings.contextWindow,
  });
  const fitter = contextFitter({
    window: contextWindow,
    model: conversation.model,
    // The history leaves room for the answer and for the reasoning an effort asks for.
    maxTokens: withReasoningRoom(maxTokens, effort !== undefined, effort),
    charsPerToken: input.charsPerToken,
    ...(input.learnedCharsPerToken && { learnedCharsPerToken: input.learnedCharsPerToken }),
    emit: input.emit,
    // A call waiting to be tried again says so: the wait may be the provider's Retry-After.
    stream: (p, request) =>
      streamWithRetries(p, request, {
        onRetry: (attempt, waitMs, code, error) => {
          timer.retried(attempt, waitMs, code);
          input.emit({
            type: "notice",
            level: "info",
            message: retryNotice(error, waitMs, attempt),
          });
        },
      }),
  });
  const audit = input.audit && auditedAttempts(input.audit);
  const ask = (p: ModelProvider, request: ModelRequest) => fitter.stream(p, request);
  // A call cut short is counted as the model's it was sent to (a fallback's too).
  const attempts = new CallAttempts(input.callUnderWay);
  const askOnce = attempts.wrap(audit ? audit.attempt(ask) : ask);
  const routed: Pick<LoopDeps, "stream" | "routing"> =
    fallbacks.length > 0
      ? routedStream({
          env: input.env,
          turnId: input.turnId,
          models: [{ provider: conversation.provider, model: conversation.model }, ...fallbacks],
          own,
          refusals: input,
          localFirst: conversation.settings.localFirst ?? false,
          stream: askOnce,
          emit: input.emit,
          firstEventTimeoutMs: (conversation.settings.routeTimeoutSeconds ?? 60) * 1000,
        })
      : { stream: (p, request) => askOnce(p, request) };
  const stream = attempts.call(audit ? audit.step(routed.stream) : routed.stream);
  const attachments = await attachmentConverter({
    env: input.env,
    conversation,
    history: input.history,
    emit: input.emit,
    announce: !input.resumed,
    ...(input.pdfTexts && { pdfTexts: input.pdfTexts }),
  });
  const language = await detectLanguage(latestUserText(input.history));
  return runThinkingLoop(
    {
      provider,
      ...routed,
      stream,
      fitContext: (messages, system, toolDefs) => fitter.fitContext(messages, system, toolDefs),
      tools,
      calls: input.calls,
      toolNames: {
        toSafe: (server, tool) => names!.toSafe(server, tool),
        fromSafe: (name) => names?.fromSafe(name),
      },
      saveArtifact: input.saveArtifact,
      checkpoint: input.checkpoint,
      emit: input.emit,
      recordUsage: input.recordUsage,
      ...(input.callUnderWay && { callUnderWay: attempts.callUnderWay }),
      attempting: attempts.current,
      // A call cut short is estimated at the ratio the fitter counts the history with.
      ...(input.charsPerToken && { charsPerToken: input.charsPerToken }),
      prices: modelPrices(input.env),
      ...(audit && { audit: audit.loopAudit }),
      stepTimer: timer,
      ...(input.approvals && { approvals: input.approvals }),
    },
    {
      turnId: input.turnId,
      messageId: input.assistantMessageId,
      model: conversation.model,
      system:
        `${systemPrompt(conversation.mode, input.pinned)}\n\n` +
        templateSystemSection(conversation.settings.template, {
          model: conversation.model,
          provider: conversation.provider,
          now: new Date(),
          language,
        }) +
        languageInstruction(language) +
        summaryPrompt(input.summary ?? null),
      history: [
        ...templateMessages(conversation.settings.template),
        ...toNeutralHistory(input.history, earlierResults(input), attachments),
      ],
      maxSteps: input.maxSteps,
      maxTokens,
      ...(conversation.settings.temperature !== undefined && {
        temperature: conversation.settings.temperature,
      }),
      ...(effort && { reasoningEffort: effort }),
      // Ollama runs with the window the history is fitted to, not its own small default.
      ...(conversation.provider === "ollama" && { contextTokens: contextWindow.contextTokens }),
      signal: input.signal,
      ...(input.usedBefore && { usedBefore: input.usedBefore }),
      budgets: turnBudgets(input.env, conversation.settings.budgets),
      ...(conversation.settings.answerCapChars !== undefined && {
        answerCapChars: conversation.settings.answerCapChars,
      }),
      ...(conversation.settings.maxToolsPerStep !== undefined && {
        maxToolsPerStep: conversation.settings.maxToolsPerStep,
      }),
    },
    input.resumed,
  );
}

/** Every earlier call's stored result, read at once (history.ts looks each one up). */
function earlierResults(
  input: TurnInput,
): ((callId: string) => StoredResult | undefined) | undefined {
  const results = input.toolResults?.(toolCallIdsIn(input.history));
  return results && ((callId) => results.get(callId));
}

function latestUserText(history: readonly ChatMessage[]): string {
  const latest = history.findLast((m) => m.role === "user");
  return latest ? messageText(latest.content) : "";
}
