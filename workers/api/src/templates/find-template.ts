// One template by id, built-in or the user's own.
import type { Template } from "../../../../durable-objects/protocol/templates";
import type { Db } from "../../../../shared/db/client";
import { getOwnTemplate } from "../db/templates";
import { notFound } from "../http/errors";
import { builtinTemplate, isBuiltinId } from "./builtin-templates";

export async function findTemplate(db: Db, userId: string, id: string): Promise<Template> {
  if (!isBuiltinId(id)) return getOwnTemplate(db, userId, id);
  const template = builtinTemplate(id);
  if (!template) throw notFound("Template");
  return template;
}
