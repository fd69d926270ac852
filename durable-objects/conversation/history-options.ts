// What a turn needs from this object's storage to build its history: earlier tool results, the
// characters-per-token ratio learned from the provider's reported usage (per model), and the
// text of the history's PDFs.
import type { PdfTextCache } from "./attachment-loader";
import type { ConversationStore } from "./store";
import { parseStoredResult, type StoredResult } from "./history";
import type { ConversationInfo, TurnInput } from "./turn";

const ratioKey = (c: ConversationInfo) => `chars_per_token:${c.provider}:${c.model}`;

export function historyOptions(
  store: ConversationStore,
  conversation: ConversationInfo,
): Pick<TurnInput, "toolResults" | "charsPerToken" | "learnedCharsPerToken" | "pdfTexts"> {
  const learned = Number(store.getMeta(ratioKey(conversation)));
  return {
    toolResults: (callIds) => storedResults(store, callIds),
    ...(learned > 0 && { charsPerToken: learned }),
    learnedCharsPerToken: (ratio) => store.setMeta(ratioKey(conversation), ratio.toFixed(3)),
    pdfTexts: pdfTextCache(store),
  };
}

/**
 * The stored results of these calls that are there and in shape, by call id, in one read. The
 * artifacts a result was saved as are named as they are now: under their titles now, and left
 * out once deleted (the model is then told the result is kept with its call).
 */
export function storedResults(
  store: ConversationStore,
  callIds: readonly string[],
): Map<string, StoredResult> {
  const results = new Map<string, StoredResult>();
  for (const [id, stored] of store.toolResults(callIds)) {
    const parsed = parseStoredResult(stored);
    if (!parsed) continue;
    const artifacts = parsed.artifacts?.flatMap((a) => {
      const now = store.artifactNow(a.id);
      if (now?.deleted) return [];
      return [{ id: a.id, title: now?.title ?? a.title }];
    });
    results.set(id, { ...parsed, ...(artifacts && { artifacts }) });
  }
  return results;
}

/** The text of the conversation's PDFs (attachment-loader.ts), one entry per attachment. */
export function pdfTextCache(store: ConversationStore): PdfTextCache {
  const key = (artifactId: string) => `pdf_text:${artifactId}`;
  return {
    get: (artifactId) => store.getMeta(key(artifactId)),
    set: (artifactId, text) => store.setMeta(key(artifactId), text),
    forget: (artifactId) => store.deleteMeta(key(artifactId)),
  };
}
