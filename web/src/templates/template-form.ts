// The template dialog's fields, and the template input they make (or what is wrong with them).
import type { ReasoningEffort } from "../../../durable-objects/protocol/conversation-settings";
import type { ProviderName } from "../../../durable-objects/protocol/provider-ids";
import type { ConversationMode } from "../../../durable-objects/protocol/rest";
import type { TemplateMessage } from "../../../durable-objects/protocol/template-context";
import type {
  Template,
  TemplateDefaults,
  TemplateInput,
} from "../../../durable-objects/protocol/templates";

export type ServerChoices = Pick<TemplateDefaults, "blockedServers" | "enabledTools">;

export interface TemplateForm {
  name: string;
  description: string;
  systemPrompt: string;
  messages: TemplateMessage[];
  /** "" leaves the conversation's own default. */
  provider: ProviderName | "";
  model: string;
  mode: ConversationMode | "";
  reasoningEffort: ReasoningEffort | "";
  maxSteps: string;
  /** The servers a new conversation does not use, and per server the only tools it offers. */
  servers: ServerChoices;
}

export const MAX_STARTING_MESSAGES = 10;

export function formFromTemplate(template: Template | null): TemplateForm {
  const d = template?.defaults ?? {};
  return {
    name: template ? (template.builtin ? `${template.name} (copy)` : template.name) : "",
    description: template?.description ?? "",
    systemPrompt: template?.systemPrompt ?? "",
    messages: template?.messages.map((m) => ({ ...m })) ?? [],
    provider: d.provider ?? "",
    model: d.model ?? "",
    mode: d.mode ?? "",
    reasoningEffort: d.reasoningEffort ?? "",
    maxSteps: d.maxSteps !== undefined ? String(d.maxSteps) : "",
    servers: {
      ...(d.blockedServers && { blockedServers: d.blockedServers }),
      ...(d.enabledTools && { enabledTools: d.enabledTools }),
    },
  };
}

/** The input for the API, or a sentence saying what to fix. */
export function inputFromForm(form: TemplateForm): TemplateInput | string {
  if (!form.name.trim()) return "Give the template a name.";
  const steps = form.maxSteps.trim() ? Number(form.maxSteps) : undefined;
  if (steps !== undefined && !(Number.isInteger(steps) && steps >= 1 && steps <= 20))
    return "The step limit is a whole number from 1 to 20 (or empty for the usual limit).";
  const messages = form.messages.filter((m) => m.content.trim());
  if (messages.length > MAX_STARTING_MESSAGES)
    return `A template starts with at most ${MAX_STARTING_MESSAGES} messages.`;
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    systemPrompt: form.systemPrompt,
    messages: messages.map((m) => ({ role: m.role, content: m.content.trim() })),
    defaults: {
      ...form.servers,
      ...(form.provider && { provider: form.provider }),
      ...(form.provider && form.model.trim() && { model: form.model.trim() }),
      ...(form.mode && { mode: form.mode }),
      ...(form.reasoningEffort && { reasoningEffort: form.reasoningEffort }),
      ...(steps !== undefined && { maxSteps: steps }),
    },
  };
}
