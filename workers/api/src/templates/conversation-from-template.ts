// The settings of a conversation started from a template: what the request sets wins, the
// template's defaults fill the rest, and the template's prompt and messages travel with it. The
// title stays the placeholder, so the automatic title still names the conversation.
import type {
  ConversationMode,
  ConversationSettings,
} from "../../../../durable-objects/protocol/rest";
import { fillVariables, type Template } from "../../../../durable-objects/protocol/templates";
import type { ProviderId } from "../../../../durable-objects/providers/types";

export interface ConversationChoices {
  provider?: ProviderId | undefined;
  model?: string | undefined;
  mode?: ConversationMode | undefined;
  settings?: ConversationSettings | undefined;
}

/** {{user}} is filled now (the Durable Object does not know names); the rest on each request. */
const fillUser = (prompt: string, userName: string) => fillVariables(prompt, { user: userName });

export function applyTemplate(
  template: Template,
  chosen: ConversationChoices,
  userName: string,
): ConversationChoices {
  const { defaults } = template;
  // The template's model belongs to the template's provider: not to one the request picked.
  const keepTemplateModel = !chosen.provider || chosen.provider === defaults.provider;
  return {
    provider: chosen.provider ?? defaults.provider,
    model: chosen.model ?? (keepTemplateModel ? defaults.model : undefined),
    mode: chosen.mode ?? defaults.mode,
    settings: {
      ...(defaults.maxSteps !== undefined && { maxSteps: defaults.maxSteps }),
      ...(defaults.reasoningEffort && { reasoningEffort: defaults.reasoningEffort }),
      ...(defaults.blockedServers && { blockedServers: defaults.blockedServers }),
      ...(defaults.enabledTools && { enabledTools: defaults.enabledTools }),
      ...chosen.settings,
      template: {
        templateId: template.id,
        name: template.name,
        systemPrompt: fillUser(template.systemPrompt, userName),
        messages: template.messages,
      },
    },
  };
}
