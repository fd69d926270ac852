// The user's attachments in a turn's history: loaded for the conversation's model and turned into
// the parts it takes (loop/attachment-parts.ts). When the new message's attachments go to the
// model as text because it cannot take them as files, the user is told once, at the turn's start.
import { attachmentParts, textInsteadNotice } from "../loop/attachment-parts";
import { modelWindow } from "../loop/context-budget";
import type { AttachmentPart, ChatMessage } from "../protocol/messages";
import type { NewServerEvent } from "../protocol/wire";
import { attachmentCapabilitiesOf } from "../providers/attachment-capabilities";
import { openaiApiOf } from "../providers/openai/api-choice";
import { providerConfigFromEnv } from "../providers/registry";
import type { NeutralPart } from "../providers/types";
import type { Env } from "../../shared/env";
import { loadAttachments, MAX_TEXT_CHARS, type PdfTextCache } from "./attachment-loader";
import type { ConversationInfo } from "./turn";

/** A text attachment may take this share of the model's window (in characters at 4 per token). */
const TEXT_SHARE_OF_WINDOW = 1 / 4;

export type AttachmentConverter = (part: AttachmentPart) => NeutralPart[];

export async function attachmentConverter(input: {
  env: Env;
  conversation: ConversationInfo;
  history: readonly ChatMessage[];
  emit: (event: NewServerEvent) => void;
  /** False for a turn picked up again: its start already told the user. */
  announce: boolean;
  pdfTexts?: PdfTextCache;
}): Promise<AttachmentConverter> {
  const { conversation } = input;
  const openai = providerConfigFromEnv(input.env, "openai");
  const can = attachmentCapabilitiesOf(
    conversation.provider,
    conversation.model,
    openai ? openaiApiOf(openai) : undefined,
  );
  const window = modelWindow(conversation.provider, conversation.model, {
    contextTokens: conversation.settings.contextWindow,
  });
  const maxTextChars = Math.min(
    MAX_TEXT_CHARS,
    Math.floor(window.contextTokens * 4 * TEXT_SHARE_OF_WINDOW),
  );
  const loaded = await loadAttachments({
    d1: input.env.DB,
    bucket: input.env.ARTIFACTS,
    pdfTextService: input.env.PDF_TEXT,
    conversationId: conversation.id,
    history: input.history,
    can,
    maxTextChars,
    ...(input.pdfTexts && { pdfTexts: input.pdfTexts }),
  });
  const convert = (part: AttachmentPart) =>
    attachmentParts(loaded.get(part.artifactId) ?? { part }, can, maxTextChars);
  const latest = input.history.findLast((m) => m.role === "user");
  const textInstead = new Set(
    (latest?.content ?? []).flatMap((p) =>
      p.type === "attachment" ? (convert(p).textInstead ?? []) : [],
    ),
  );
  if (input.announce && textInstead.size > 0)
    input.emit({
      type: "notice",
      level: "info",
      message: textInsteadNotice(conversation.model, textInstead),
    });
  return (part) => convert(part).parts;
}
