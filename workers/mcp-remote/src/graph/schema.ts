// A conversation's knowledge graph in D1 (graph mode). Rows go with their conversation.
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { conversations } from "../../../../shared/db/schema";

export const graphNodes = sqliteTable(
  "graph_nodes",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    label: text("label").notNull(),
    type: text("type").notNull().default("entity"),
    // JSON object.
    properties: text("properties").notNull().default("{}"),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.id] })],
);

export const graphLinks = sqliteTable(
  "graph_links",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    target: text("target").notNull(),
    type: text("type").notNull().default("related_to"),
    properties: text("properties").notNull().default("{}"),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.source, t.target, t.type] }),
    index("graph_links_target_idx").on(t.conversationId, t.target),
  ],
);
