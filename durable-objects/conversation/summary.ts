// Rolling summary (memory compression): once the older part of the history passes a threshold,
// the provider's cheap model condenses it into a summary that keeps facts, decisions, open
// questions and artifact names. It is stored with the conversation (this object's storage and
// its event log), updated incrementally (the last summary plus the messages since), and sent
// instead of the messages it covers; the messages themselves stay in D1 and on screen.
import type { Env } from "../../shared/env";
import { modelWindow, TokenEstimator } from "../loop/context-budget";
import { type ChatMessage, messageText } from "../protocol/messages";
import type { NewServerEvent } from "../protocol/wire";
import { housekeepingCall } from "./housekeeping-call";
import {
  housekeepingModel,
  housekeepingEffort,
  housekeepingTemperature,
} from "./housekeeping-model";
import type { ConversationStore } from "./store";
import type { ConversationInfo } from "./turn";

const SUMMARY = "summary_text";
const SUMMARY_UPTO = "summary_upto_seq";
/** The newest messages are never summarised: the model sees them as they were. */
export const KEEP_RECENT_MESSAGES = 6;
/** The older part is summarised once it passes this share of the model's window (unless set). */
export const SUMMARY_THRESHOLD_SHARE = 0.25;

export const SUMMARY_INSTRUCTION =
  "You keep the running summary of a conversation between a user and an assistant. Update the " +
  "summary with the new messages. Keep every fact, decision, open question, number and the " +
  "names of artifacts and tools used; drop pleasantries. Write it in the conversation's " +
  "language, as short paragraphs or bullet points, at most 400 words. Reply with the summary only.";

export interface StoredSummary {
  text: string;
  /** The last message (seq) the summary covers. */
  upToSeq: number;
}

export function storedSummary(store: ConversationStore): StoredSummary | null {
  const text = store.getMeta(SUMMARY);
  const upToSeq = Number(store.getMeta(SUMMARY_UPTO));
  return text && upToSeq > 0 ? { text, upToSeq } : null;
}

/** The system prompt's part for a summary (empty without one). */
export function summaryPrompt(summary: StoredSummary | null): string {
  return summary
    ? `\n\n## Earlier in this conversation\n\nA summary of the messages before the ones below:\n\n${summary.text}`
    : "";
}

/** Messages not yet summarised that are old enough to be, when they pass the threshold. */
export function dueForSummary(
  messages: readonly ChatMessage[],
  summary: StoredSummary | null,
  conversation: Pick<ConversationInfo, "provider" | "model" | "settings">,
): ChatMessage[] {
  const unsummarised = messages.filter((m) => m.seq > (summary?.upToSeq ?? 0));
  const older = unsummarised.slice(0, Math.max(0, unsummarised.length - KEEP_RECENT_MESSAGES));
  // A summary ends after an answer, so the next turn starts clean at a user message.
  while (older.length > 0 && older.at(-1)!.role !== "assistant") older.pop();
  const window = modelWindow(conversation.provider, conversation.model, {
    contextTokens: conversation.settings.contextWindow,
  });
  const estimate = new TokenEstimator();
  const cost = older.map((m) => estimate.text(transcriptLine(m)));
  const tokens = cost.reduce((n, c) => n + c, 0);
  const share =
    conversation.settings.summaryThresholdPercent !== undefined
      ? conversation.settings.summaryThresholdPercent / 100
      : SUMMARY_THRESHOLD_SHARE;
  if (tokens < window.contextTokens * share) return [];
  // One call reads at most this much; a longer backlog is condensed over the next answers.
  const limit = Math.min(window.contextTokens / 2, MAX_SUMMARY_INPUT_TOKENS);
  let end = 0;
  for (let i = 0, used = 0; i < older.length; i++) {
    used += cost[i]!;
    if (used > limit && end > 0) break;
    if (older[i]!.role === "assistant") end = i + 1;
  }
  return older.slice(0, end);
}

/** The most one summary call reads (the cheap models' windows are all larger). */
const MAX_SUMMARY_INPUT_TOKENS = 50_000;

export interface SummarizeInput {
  env: Env;
  store: ConversationStore;
  conversation: ConversationInfo;
  emit: (event: NewServerEvent) => void;
  /** Sends the outbox (the summary call's usage row) on to D1. */
  flush: () => Promise<void>;
}

/** Updates the summary when the older part has passed the threshold; otherwise does nothing. */
export async function updateSummaryIfDue(input: SummarizeInput): Promise<void> {
  const { store, conversation } = input;
  const previous = storedSummary(store);
  const due = dueForSummary(store.messages(), previous, conversation);
  const last = due.at(-1);
  if (!last) return;
  const writer = housekeepingModel(input.env, conversation);
  if (!writer) return;
  const result = await housekeepingCall(
    writer,
    {
      system: SUMMARY_INSTRUCTION,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "text",
              text:
                `Summary so far:\n${previous?.text ?? "(none yet)"}\n\n` +
                `New messages:\n${store.withArtifactsNow(due).map(transcriptLine).join("\n\n")}`,
            },
          ],
        },
      ],
      // Room for a reasoning model's thinking (see TITLE_MAX_TOKENS) and a 400-word summary.
      maxTokens: 4_000,
      temperature: housekeepingTemperature(writer),
      reasoningEffort: housekeepingEffort(writer),
    },
    {
      env: input.env,
      store,
      conversationId: conversation.id,
      ownerId: conversation.userId,
      flush: input.flush,
      emit: input.emit,
      purpose: "summary",
    },
  );
  if (result.text === null) {
    console.warn(`could not update the summary: ${result.error}`);
    return;
  }
  const text = result.text.trim();
  if (!text) return;
  store.setMeta(SUMMARY, text);
  store.setMeta(SUMMARY_UPTO, String(last.seq));
  input.emit({ type: "summary_updated", text, upToSeq: last.seq });
}

/** A message as the summariser reads it: who, what was said, which tools were used. */
function transcriptLine(m: ChatMessage): string {
  const tools = m.content.flatMap((p) =>
    p.type === "tool_call" ? [`${p.server}/${p.tool}${p.summary ? ` (${p.summary})` : ""}`] : [],
  );
  // As they are now (renamed or deleted since the answer): the summary outlives the messages.
  const artifacts = m.content.flatMap((p) =>
    p.type === "artifact" ? [p.deleted ? `${p.title} (deleted since)` : p.title] : [],
  );
  return (
    `${m.role === "user" ? "User" : "Assistant"}: ${messageText(m.content)}` +
    (tools.length > 0 ? `\n[tools: ${tools.join("; ")}]` : "") +
    (artifacts.length > 0 ? `\n[artifacts: ${artifacts.join("; ")}]` : "")
  );
}
