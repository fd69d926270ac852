// REST calls for conversation templates. Answers are parsed with the shapes the worker shares
// (durable-objects/protocol/templates.ts); failures are ApiFailure (../api).
import { z } from "zod";
import {
  SavedTemplate,
  Template,
  type TemplateInput,
  type TemplatePatch,
} from "../../../durable-objects/protocol/templates";
import { apiRequest } from "../api";

const path = (id: string) => `/api/templates/${encodeURIComponent(id)}`;

export const templatesApi = {
  /** The built-ins first, then the user's own. */
  list: () => apiRequest(z.object({ items: z.array(Template) }), "/api/templates"),
  create: (input: z.input<typeof TemplateInput>) =>
    apiRequest(SavedTemplate, "/api/templates", { method: "POST", json: input }),
  update: (id: string, patch: TemplatePatch) =>
    apiRequest(SavedTemplate, path(id), { method: "PATCH", json: patch }),
  remove: (id: string) => apiRequest(z.undefined(), path(id), { method: "DELETE" }),
};
