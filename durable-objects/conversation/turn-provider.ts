// A model's provider as a turn calls it: built from this deployment's keys, with its tools
// described in its prompt when the model takes no native ones (known to lack them, set so by the
// conversation, or refused them earlier in it: provider-refusals.ts).
import type { RouteModel } from "../loop/step-route";
import { type ToolCalling, toolCallingOf } from "../providers/prompt-tools/capabilities";
import { withPromptTools } from "../providers/prompt-tools/with-prompt-tools";
import { createProvider, providerConfigFromEnv, type ProviderEnv } from "../providers/registry";
import type { AskedAgain, ModelProvider } from "../providers/types";

export interface ProviderRefusals {
  /** A provider refused something a request asked for and asked again without it. */
  onAskedAgain?: (refusal: AskedAgain) => void;
  /** Whether a model refused native tools earlier in this conversation. */
  refusedNativeTools?: (model: string) => boolean;
}

/** The provider for `model`, or null when this deployment has no key for it. */
export function turnProvider(
  env: ProviderEnv,
  model: RouteModel,
  toolCalling: ToolCalling | undefined,
  refusals: ProviderRefusals,
): ModelProvider | null {
  const config = providerConfigFromEnv(env, model.provider);
  if (!config) return null;
  const { onAskedAgain } = refusals;
  const native = createProvider(
    model.provider,
    onAskedAgain ? { ...config, onAskedAgain } : config,
  );
  const prompted =
    toolCallingOf(model.provider, model.model, toolCalling) === "prompt" ||
    (refusals.refusedNativeTools?.(model.model) ?? false);
  return prompted ? withPromptTools(native) : native;
}
