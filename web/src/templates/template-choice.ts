// What picking a template does to the new-conversation form: its defaults replace the fields
// they name (a provider this deployment does not offer is ignored), the rest stay as chosen.
import type { ConversationMode, ProviderInfo } from "../../../durable-objects/protocol/rest";
import type { Template } from "../../../durable-objects/protocol/templates";

export interface NewConversationFields {
  provider: string;
  model: string;
  mode: ConversationMode;
}

export function fieldsFromTemplate(
  template: Template,
  providers: readonly ProviderInfo[],
  current: NewConversationFields,
): NewConversationFields {
  const { defaults } = template;
  const provider = providers.find((p) => p.id === defaults.provider);
  return {
    provider: provider?.id ?? current.provider,
    model: provider ? (defaults.model ?? provider.defaultModel) : current.model,
    mode: defaults.mode ?? current.mode,
  };
}
