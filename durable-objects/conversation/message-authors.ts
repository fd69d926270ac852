// Who wrote each user message, kept in the object's SQLite so the model can tell people apart:
// once a conversation has more than one writer, each user message it reads starts with its
// author's name ("[bo] …"). A conversation with one writer reads exactly as before.
import type { ChatMessage } from "../protocol/messages";

type Author = NonNullable<ChatMessage["author"]>;

export class MessageAuthors {
  /**
   * The authors as last read: every turn asks for them all, one row per user message of the
   * conversation. `remember`, their only writer, adds to the copy as it writes the row.
   */
  #all: Map<string, Author> | undefined;

  /** `sql` has the table (schema.ts). */
  constructor(private readonly sql: SqlStorage) {}

  remember(messageId: string, author: Author): void {
    this.sql.exec(
      "INSERT INTO conv_message_authors (message_id, user_id, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
      messageId,
      author.id,
      author.name,
    );
    // The first author of a message stays, as the row's ON CONFLICT DO NOTHING keeps it.
    if (this.#all && !this.#all.has(messageId))
      this.#all.set(messageId, { id: author.id, name: author.name });
  }

  all(): ReadonlyMap<string, Author> {
    this.#all ??= new Map(
      this.sql
        .exec<{ message_id: string; user_id: string; name: string }>(
          "SELECT message_id, user_id, name FROM conv_message_authors",
        )
        .toArray()
        .map((r) => [r.message_id, { id: r.user_id, name: r.name }]),
    );
    return this.#all;
  }
}

/** The history as the model reads it: user messages named by author once several people write. */
export function withAuthorNames(
  history: ChatMessage[],
  authors: ReadonlyMap<string, Author>,
): ChatMessage[] {
  const writers = new Set(
    history.flatMap((m) => {
      const author = m.role === "user" ? authors.get(m.id) : undefined;
      return author ? [author.id] : [];
    }),
  );
  if (writers.size < 2) return history;
  return history.map((m) => {
    const author = m.role === "user" ? authors.get(m.id) : undefined;
    if (!author) return m;
    const first = m.content.findIndex((p) => p.type === "text");
    if (first < 0) return m;
    const content = m.content.map((p, i) =>
      i === first && p.type === "text" ? { ...p, text: `[${author.name}] ${p.text}` } : p,
    );
    return { ...m, content };
  });
}
