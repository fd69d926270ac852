// Automatic titles: after the first answer, a cheap model names the conversation (short, in its
// language). The title is written only over the placeholder or the first-message title, so a
// title the user set is never overwritten, and every open tab hears of it at once.
import type { Env } from "../../shared/env";
import { withoutBidiControls } from "../protocol/display-text";
import { messageText, type ChatMessage } from "../protocol/messages";
import type { NewServerEvent } from "../protocol/wire";
import { titleFromFirstMessage } from "./first-message-title";
import { housekeepingCall, type HousekeepingUsageSink } from "./housekeeping-call";
import {
  housekeepingEffort,
  housekeepingModel,
  type HousekeepingModel,
  housekeepingTemperature,
} from "./housekeeping-model";
import { PLACEHOLDER_TITLE } from "./outbox";
import type { ConversationStore } from "./store";
import type { ConversationInfo } from "./turn";

const MAX_TITLE_CHARS = 80;
const NAMED = "auto_title";

export const TITLE_INSTRUCTION =
  "Name this conversation. Reply with the title only: at most six words, in the language of " +
  "the user's message, no quotes, no final period.";

/** What a model wrote, made a title: its first line, without quotes or a "Title:" label. */
export function cleanTitle(raw: string): string {
  const line =
    withoutBidiControls(raw)
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  const bare = line
    .replace(/^(title|titre|titel|título|titolo)\s*:\s*/i, "")
    .replace(/^["'«“‘*#\s]+|["'»”’*\s.。]+$/g, "")
    .trim();
  return bare.length <= MAX_TITLE_CHARS ? bare : `${bare.slice(0, MAX_TITLE_CHARS - 1)}…`;
}

export interface NameConversationInput {
  env: Env;
  store: ConversationStore;
  conversationId: string;
  conversation: Pick<ConversationInfo, "userId" | "provider" | "model" | "settings">;
  emit: (event: NewServerEvent) => void;
  /** Sends the outbox (the title call's usage row) on to D1. */
  flush: () => Promise<void>;
}

/** Names the conversation once, after its first complete answer; failures only cost the title. */
export async function nameConversationOnce(input: NameConversationInput): Promise<void> {
  const { store } = input;
  if (store.getMeta(NAMED)) return;
  const messages = store.messages();
  const question = messages.find((m) => m.role === "user");
  const answer = messages.find((m) => m.role === "assistant" && m.status === "complete");
  if (!question || !answer) return;
  store.setMeta(NAMED, "asked");
  const writer = housekeepingModel(input.env, input.conversation);
  if (!writer) return;
  const title = await askForTitle(writer, question, answer, {
    env: input.env,
    store,
    conversationId: input.conversationId,
    ownerId: input.conversation.userId,
    flush: input.flush,
    emit: input.emit,
    purpose: "title",
  });
  if (!title) return;
  const written = await input.env.DB.prepare(
    "UPDATE conversations SET title = ?1 WHERE id = ?2 AND title IN (?3, ?4)",
  )
    .bind(
      title,
      input.conversationId,
      PLACEHOLDER_TITLE,
      titleFromFirstMessage(messageText(question.content)),
    )
    .run();
  if (written.meta.changes > 0) input.emit({ type: "title_changed", title });
}

/**
 * The title call's output cap. Reasoning models (OpenAI's since gpt-5, Gemini 3) count their
 * thinking against it before they write a word, so a cap sized for six words left them nothing to
 * write the title with; the adapters now add room for the thinking on top, and a title asks for
 * little of it (housekeepingEffort). A model that does not think stops at the title.
 */
export const TITLE_MAX_TOKENS = 1_000;

export async function askForTitle(
  writer: HousekeepingModel,
  question: ChatMessage,
  answer: ChatMessage,
  usage?: HousekeepingUsageSink,
): Promise<string> {
  const result = await housekeepingCall(
    writer,
    {
      system: TITLE_INSTRUCTION,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "text",
              text:
                `User: ${messageText(question.content).slice(0, 2_000)}\n\n` +
                `Assistant: ${messageText(answer.content).slice(0, 2_000)}\n\n${TITLE_INSTRUCTION}`,
            },
          ],
        },
      ],
      maxTokens: TITLE_MAX_TOKENS,
      temperature: housekeepingTemperature(writer),
      reasoningEffort: housekeepingEffort(writer),
    },
    usage,
  );
  if (result.text === null) {
    console.warn(`could not name the conversation: ${result.error}`);
    return "";
  }
  return cleanTitle(result.text);
}
