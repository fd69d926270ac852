// Conversation templates (NextChat's masks): a system prompt with variables, a few starting
// messages and the settings a new conversation takes. Shared by the API worker and the client.
import { z } from "zod";
import { ConversationMode, ReasoningEffort } from "./conversation-settings";
import { ProviderIdSchema } from "./provider-ids";
import { TemplateMessage } from "./template-context";

/** The variables a template's system prompt may hold, each written `{{name}}`. */
export const TEMPLATE_VARIABLES = ["model", "provider", "date", "time", "lang", "user"] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** `{{name}}`, spaces inside the braces allowed. */
const VARIABLE = /\{\{\s*(\w+)\s*\}\}/g;

/** Fills the variables `values` has; every other `{{…}}` stays as written. */
export function fillVariables(
  prompt: string,
  values: Partial<Record<TemplateVariable, string>>,
): string {
  return prompt.replace(
    VARIABLE,
    (whole, name: string) => (values as Record<string, string | undefined>)[name] ?? whole,
  );
}

/**
 * Warnings for a system prompt's `{{…}}` that are not variables: sent to the model as written,
 * which is meant (a prompt about templates) or a typo the author should hear of.
 */
export function unknownVariableWarnings(prompt: string): string[] {
  const known = new Set<string>(TEMPLATE_VARIABLES);
  const unknown = new Set(
    Array.from(prompt.matchAll(VARIABLE), (m) => m[1]!).filter((name) => !known.has(name)),
  );
  const list = TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(", ");
  return [...unknown].map(
    (name) =>
      `{{${name}}} is not a variable, so the model gets it as written. The variables are ${list}.`,
  );
}

export const TemplateDefaults = z
  .object({
    provider: ProviderIdSchema.optional(),
    model: z.string().min(1).max(200).optional(),
    mode: ConversationMode.optional(),
    maxSteps: z.number().int().min(1).max(20).optional(),
    reasoningEffort: ReasoningEffort.optional(),
    // MCP server names the conversation must not use, as in the conversation settings.
    blockedServers: z.array(z.string().min(1).max(100)).max(100).optional(),
    // Per server: the only tools offered to the model, as in the conversation settings.
    enabledTools: z.record(z.string(), z.array(z.string().min(1).max(200)).max(500)).optional(),
  })
  .strict()
  // A model belongs to its provider: alone, it would go to whichever provider the user has.
  .refine((d) => d.model === undefined || d.provider !== undefined, {
    message: "name the provider of the model too (anthropic, openai, gemini or ollama)",
    path: ["provider"],
  });
export type TemplateDefaults = z.infer<typeof TemplateDefaults>;

const TemplateFields = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(500),
    systemPrompt: z.string().max(20_000),
    messages: z.array(TemplateMessage).max(10),
    defaults: TemplateDefaults,
  })
  .strict();

export const TemplateInput = TemplateFields.extend({
  description: TemplateFields.shape.description.default(""),
  systemPrompt: TemplateFields.shape.systemPrompt.default(""),
  messages: TemplateFields.shape.messages.default([]),
  defaults: TemplateDefaults.default({}),
});
export type TemplateInput = z.infer<typeof TemplateInput>;

// No defaults here: a field left out of a change stays as it was.
export const TemplatePatch = TemplateFields.partial().refine((b) => Object.keys(b).length > 0, {
  message: "Send at least one of name, description, systemPrompt, messages, defaults.",
});
export type TemplatePatch = z.infer<typeof TemplatePatch>;

export const Template = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  systemPrompt: z.string(),
  messages: z.array(TemplateMessage),
  defaults: TemplateDefaults,
  // Built-in templates come with the app: listed with the user's own, never editable.
  builtin: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Template = z.infer<typeof Template>;

/** A template as created or changed: with warnings about its prompt, when it has any. */
export const SavedTemplate = Template.extend({ warnings: z.array(z.string()).optional() });
export type SavedTemplate = z.infer<typeof SavedTemplate>;
