// Message search as a viewer of a shared conversation may see it. The search index holds an
// answer's text as stored, budget figures included (the tokens used or dollars spent, which a
// viewer is not shown: protocol/viewer-view.ts). So for a viewer's conversations the index only
// nominates messages: each one's text, without its figures, is matched again here, and the
// snippet is cut from that text. A conversation that matched only by its figures is not found.
import { sql } from "drizzle-orm";
import { withoutSpending } from "../../../../durable-objects/protocol/viewer-view";
import type { Db } from "../../../../shared/db/client";

/** Words shown around the first match, as the index's own snippets (message-search.ts). */
const SNIPPET_WORDS = 16;
/** Words shown before the first match. */
const LEAD_WORDS = 3;
/** Matching messages read at most, best first, for one page of a viewer's conversations. */
const MAX_MESSAGES = 500;

/** Letters and digits, as the index's tokenizer (unicode61, diacritics removed) reads them. */
const WORD = /[\p{L}\p{N}]+/gu;
const fold = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The passage of `text` around the first word starting with one of `words`; null if none does. */
export function passageMatching(text: string, words: readonly string[]): string | null {
  const tokens = [...text.matchAll(WORD)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    folded: fold(m[0]),
  }));
  const wanted = words.map(fold);
  // Every word must be there (the index ANDs them), each as the start of some word of the text.
  if (!wanted.every((w) => tokens.some((t) => t.folded.startsWith(w)))) return null;
  const hit = tokens.findIndex((t) => wanted.some((w) => t.folded.startsWith(w)));
  const from = Math.max(0, Math.min(hit - LEAD_WORDS, tokens.length - SNIPPET_WORDS));
  const to = Math.min(tokens.length, from + SNIPPET_WORDS) - 1;
  const first = tokens[from];
  const last = tokens[to];
  if (!first || !last) return null;
  return `${from > 0 ? "…" : ""}${text.slice(first.start, last.end)}${to < tokens.length - 1 ? "…" : ""}`;
}

/**
 * For each of the conversations (a viewer's), the snippet of its best-ranked message that still
 * matches once its figures are gone; a conversation with none is missing from the map.
 */
export async function viewerSnippets(
  db: Db,
  ftsQuery: string,
  words: readonly string[],
  conversationIds: readonly string[],
): Promise<Map<string, string>> {
  const snippets = new Map<string, string>();
  if (conversationIds.length === 0) return snippets;
  // The ids as one JSON parameter: a page of 100 would pass D1's 100 bound parameters.
  const rows = await db.all<{ conversation_id: string; body: string }>(
    sql`select conversation_id, body from messages_fts
         where messages_fts match ${ftsQuery}
           and conversation_id in (select value from json_each(${JSON.stringify(conversationIds)}))
         order by rank limit ${MAX_MESSAGES}`,
  );
  for (const row of rows) {
    if (snippets.has(row.conversation_id)) continue;
    const passage = passageMatching(withoutSpending(row.body), words);
    if (passage) snippets.set(row.conversation_id, passage);
  }
  return snippets;
}
