// Full-text search over message text through the messages_fts FTS5 table (migration
// 0008_message_search keeps it in step with `messages` by triggers).
import { type SQL, sql } from "drizzle-orm";
import { conversations } from "../../../../shared/db/schema";

/**
 * Turns what a person typed into an FTS5 query that cannot be a syntax error: every word is
 * quoted (so AND, OR, NEAR, quotes and colons are plain text) and matched as a prefix, so a
 * search box finds "photosynth" while it is still being typed. Null when no word is left.
 */
export function ftsQueryOf(typed: string): string | null {
  const words = searchWordsOf(typed);
  return words.length ? words.map((w) => `"${w}"*`).join(" ") : null;
}

/** The words of what a person typed that a search matches (each as the start of a word). */
export function searchWordsOf(typed: string): string[] {
  // The same split as FTS5's unicode61 tokenizer: letters and digits make words.
  return typed
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 16);
}

/** True for conversations with a message whose text matches. */
export function hasMatchingMessage(ftsQuery: string): SQL {
  return sql`${conversations.id} in (select conversation_id from messages_fts where messages_fts match ${ftsQuery})`;
}

/** The best-matching passage of the conversation's messages, or null when none matches. */
export function matchingSnippet(ftsQuery: string): SQL<string | null> {
  return sql<
    string | null
  >`(select snippet(messages_fts, 0, '', '', '…', 16) from messages_fts where messages_fts match ${ftsQuery} and conversation_id = ${conversations.id} order by rank limit 1)`;
}
