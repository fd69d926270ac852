// REST for conversation templates: the built-ins and the user's own, listed together; only the
// user's own can be changed or deleted.
import { Hono } from "hono";
import { z } from "zod";
import {
  type SavedTemplate,
  type Template,
  TemplateInput,
  TemplatePatch,
  unknownVariableWarnings,
} from "../../../../durable-objects/protocol/templates";
import type { AppEnv } from "../app-types";
import { createTemplate, deleteTemplate, listOwnTemplates, updateTemplate } from "../db/templates";
import { ApiError } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { BUILTIN_TEMPLATES, isBuiltinId } from "../templates/builtin-templates";
import { findTemplate } from "../templates/find-template";

const TemplateId = z.string().min(1).max(100);

const readOnly = () =>
  new ApiError(
    409,
    "conflict",
    "Built-in templates cannot be changed or deleted. Create your own template from it instead.",
  );

/** The saved template, with what its author should hear about its prompt. */
function withWarnings(template: Template): SavedTemplate {
  const warnings = unknownVariableWarnings(template.systemPrompt);
  return warnings.length > 0 ? { ...template, warnings } : template;
}

export const templateRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const own = await listOwnTemplates(c.get("db"), c.get("user").id);
    return c.json({ items: [...BUILTIN_TEMPLATES, ...own] });
  })
  .post("/", async (c) => {
    const body = await parseJsonBody(c, TemplateInput);
    return c.json(withWarnings(await createTemplate(c.get("db"), c.get("user").id, body)), 201);
  })
  .get("/:id", async (c) => {
    const id = parseParam(c, "id", TemplateId);
    return c.json(await findTemplate(c.get("db"), c.get("user").id, id));
  })
  .patch("/:id", async (c) => {
    const id = parseParam(c, "id", TemplateId);
    if (isBuiltinId(id)) throw readOnly();
    const body = await parseJsonBody(c, TemplatePatch);
    return c.json(withWarnings(await updateTemplate(c.get("db"), c.get("user").id, id, body)));
  })
  .delete("/:id", async (c) => {
    const id = parseParam(c, "id", TemplateId);
    if (isBuiltinId(id)) throw readOnly();
    await deleteTemplate(c.get("db"), c.get("user").id, id);
    return c.body(null, 204);
  });
