// Template rows: always read and written on behalf of their owner.
import { and, asc, eq } from "drizzle-orm";
import { TemplateMessage } from "../../../../durable-objects/protocol/template-context";
import {
  type Template,
  TemplateDefaults,
  type TemplateInput,
  type TemplatePatch,
} from "../../../../durable-objects/protocol/templates";
import type { Db } from "../../../../shared/db/client";
import { templates } from "../../../../shared/db/schema";
import { notFound } from "../http/errors";

type Row = typeof templates.$inferSelect;

/** A row's JSON columns are parsed; anything unreadable reads as empty rather than failing. */
function toTemplate(row: Row): Template {
  const messages = TemplateMessage.array().safeParse(JSON.parse(row.messages));
  const defaults = TemplateDefaults.safeParse(JSON.parse(row.defaults));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    systemPrompt: row.systemPrompt,
    messages: messages.success ? messages.data : [],
    defaults: defaults.success ? defaults.data : {},
    builtin: false,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listOwnTemplates(db: Db, userId: string): Promise<Template[]> {
  const rows = await db
    .select()
    .from(templates)
    .where(eq(templates.userId, userId))
    .orderBy(asc(templates.name));
  return rows.map(toTemplate);
}

export async function getOwnTemplate(db: Db, userId: string, id: string): Promise<Template> {
  const rows = await db
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, userId)))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound("Template");
  return toTemplate(row);
}

export async function createTemplate(
  db: Db,
  userId: string,
  input: TemplateInput,
): Promise<Template> {
  const [row] = await db
    .insert(templates)
    .values({
      id: crypto.randomUUID(),
      userId,
      name: input.name,
      description: input.description,
      systemPrompt: input.systemPrompt,
      messages: JSON.stringify(input.messages),
      defaults: JSON.stringify(input.defaults),
    })
    .returning();
  return toTemplate(row!);
}

export async function updateTemplate(
  db: Db,
  userId: string,
  id: string,
  patch: TemplatePatch,
): Promise<Template> {
  const rows = await db
    .update(templates)
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.description !== undefined && { description: patch.description }),
      ...(patch.systemPrompt !== undefined && { systemPrompt: patch.systemPrompt }),
      ...(patch.messages !== undefined && { messages: JSON.stringify(patch.messages) }),
      ...(patch.defaults !== undefined && { defaults: JSON.stringify(patch.defaults) }),
      updatedAt: Date.now(),
    })
    .where(and(eq(templates.id, id), eq(templates.userId, userId)))
    .returning();
  const row = rows[0];
  if (!row) throw notFound("Template");
  return toTemplate(row);
}

export async function deleteTemplate(db: Db, userId: string, id: string): Promise<void> {
  const rows = await db
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.userId, userId)))
    .returning({ id: templates.id });
  if (rows.length === 0) throw notFound("Template");
}
