// Conversation rows: always read and written on behalf of their owner.
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import {
  type Conversation,
  ConversationSettings,
  type ConversationMode,
} from "../../../../durable-objects/protocol/rest";
import { conversationForViewer } from "../../../../durable-objects/protocol/viewer-view";
import { notFound } from "../http/errors";
import { ftsQueryOf, hasMatchingMessage, matchingSnippet, searchWordsOf } from "./message-search";
import { containsText } from "./text-match";
import { viewerSnippets } from "./viewer-search";
import type { Db } from "../../../../shared/db/client";
import { conversationMembers, conversations } from "../../../../shared/db/schema";

type Row = typeof conversations.$inferSelect;

export function toConversation(row: Row): Conversation {
  const settings = ConversationSettings.safeParse(JSON.parse(row.settings));
  return {
    id: row.id,
    title: row.title,
    provider: row.provider,
    model: row.model,
    mode: row.mode,
    settings: settings.success ? settings.data : {},
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.parentConversationId && {
      branchedFrom: {
        conversationId: row.parentConversationId,
        messageId: row.branchedFromMessageId ?? "",
        step: row.branchedFromStep,
        seq: row.branchSeq ?? 0,
      },
    }),
  };
}

export async function getOwnedConversation(db: Db, userId: string, id: string): Promise<Row> {
  const rows = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound("Conversation");
  return row;
}

export interface ListOptions {
  limit: number;
  cursor?: string | undefined;
  q?: string | undefined;
  /** Also the conversations shared with the user, each item naming the user's role. */
  includeShared?: boolean | undefined;
}

const encodeCursor = (row: Row) => btoa(`${row.updatedAt}:${row.id}`);
export function decodeCursor(cursor: string): { updatedAt: number; id: string } | null {
  try {
    const [at, id] = atob(cursor).split(":");
    const updatedAt = Number(at);
    return id && Number.isFinite(updatedAt) ? { updatedAt, id } : null;
  } catch {
    return null;
  }
}

export async function listConversations(db: Db, userId: string, opts: ListOptions) {
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const ftsQuery = opts.q ? ftsQueryOf(opts.q) : null;
  const rows = await db
    .select({
      row: conversations,
      memberRole: conversationMembers.role,
      snippet: ftsQuery ? matchingSnippet(ftsQuery) : sql<null>`null`,
      titleMatches: opts.q
        ? sql<number>`${containsText(conversations.title, opts.q)}`
        : sql<null>`null`,
    })
    .from(conversations)
    .leftJoin(
      conversationMembers,
      and(
        eq(conversationMembers.conversationId, conversations.id),
        eq(conversationMembers.userId, userId),
      ),
    )
    .where(
      and(
        opts.includeShared
          ? or(eq(conversations.userId, userId), eq(conversationMembers.userId, userId))
          : eq(conversations.userId, userId),
        opts.q
          ? or(
              containsText(conversations.title, opts.q),
              ftsQuery ? hasMatchingMessage(ftsQuery) : undefined,
            )
          : undefined,
        after
          ? or(
              lt(conversations.updatedAt, after.updatedAt),
              and(eq(conversations.updatedAt, after.updatedAt), lt(conversations.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  const viewer = (r: (typeof page)[number]) =>
    r.row.userId !== userId && r.memberRole !== "participant";
  // A viewer's snippets come from the text without its budget figures (viewer-search.ts).
  const forViewer =
    ftsQuery && opts.q
      ? await viewerSnippets(
          db,
          ftsQuery,
          searchWordsOf(opts.q),
          page.filter((r) => viewer(r) && r.snippet !== null).map((r) => r.row.id),
        )
      : null;
  const shown = page.flatMap((r) => {
    if (!forViewer || !viewer(r)) return [r];
    const snippet = forViewer.get(r.row.id) ?? null;
    // Found only by figures the viewer is not shown: not found.
    return snippet !== null || r.titleMatches ? [{ ...r, snippet }] : [];
  });
  return {
    items: shown.map((r) => ({
      // A viewer is not shown the owner's budgets (viewer-view.ts).
      ...(viewer(r) ? conversationForViewer(toConversation(r.row)) : toConversation(r.row)),
      ...(r.snippet ? { snippet: r.snippet } : {}),
      ...(opts.includeShared && {
        role: r.row.userId === userId ? ("owner" as const) : (r.memberRole ?? "viewer"),
      }),
    })),
    nextCursor: rows.length > opts.limit && last ? encodeCursor(last.row) : null,
  };
}

export interface NewConversation {
  userId: string;
  title: string;
  provider: string;
  model: string;
  mode: ConversationMode;
  settings: ConversationSettings;
}

export async function createConversation(db: Db, input: NewConversation): Promise<Conversation> {
  const now = Date.now();
  const [row] = await db
    .insert(conversations)
    .values({
      id: crypto.randomUUID(),
      ...input,
      settings: JSON.stringify(input.settings),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toConversation(row!);
}

export interface ConversationPatch {
  title?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  mode?: ConversationMode | undefined;
  settings?: ConversationSettings | undefined;
}

export async function updateConversation(
  db: Db,
  userId: string,
  id: string,
  patch: ConversationPatch,
): Promise<Conversation> {
  const current = await getOwnedConversation(db, userId, id);
  // The template a conversation started from is part of its history, not a setting a client
  // edits: a change of settings that leaves it out keeps it.
  const template =
    patch.settings && !patch.settings.template && toConversation(current).settings.template;
  const settings = patch.settings && { ...patch.settings, ...(template && { template }) };
  const [row] = await db
    .update(conversations)
    .set({
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.provider !== undefined && { provider: patch.provider }),
      ...(patch.model !== undefined && { model: patch.model }),
      ...(patch.mode !== undefined && { mode: patch.mode }),
      ...(settings !== undefined && { settings: JSON.stringify(settings) }),
      updatedAt: Math.max(Date.now(), current.updatedAt),
    })
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning();
  return toConversation(row!);
}

/** A conversation by id, whoever owns it: only for callers that checked access another way. */
export async function getConversationRow(db: Db, id: string): Promise<Row | null> {
  const rows = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  return rows[0] ?? null;
}

/** The statement that creates a conversation under `id`, for a batch with other writes. */
export function conversationInsert(db: Db, id: string, input: NewConversation) {
  const now = Date.now();
  return db.insert(conversations).values({
    id,
    ...input,
    settings: JSON.stringify(input.settings),
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Creates the conversation under an id the client chose, unless that id is taken (by anyone):
 * whether it did. The caller checks access to a taken id as for any other conversation.
 */
export async function createConversationIfAbsent(
  db: Db,
  id: string,
  input: NewConversation,
): Promise<boolean> {
  const now = Date.now();
  const rows = await db
    .insert(conversations)
    .values({
      id,
      ...input,
      settings: JSON.stringify(input.settings),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: conversations.id });
  return rows.length > 0;
}
