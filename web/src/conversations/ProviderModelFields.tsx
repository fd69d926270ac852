// Provider and model fields, shared by the new-conversation form and the settings panel:
// picking a provider proposes its default model, and the model field offers the provider's list.
// A provider the server has no key for cannot be picked (its first message would only fail); one
// already chosen (a conversation's, a template's) stays, with a note saying so.
import { useId } from "react";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";

export function ProviderModelFields(props: {
  providers: ProviderInfo[];
  provider: string;
  model: string;
  onChange: (provider: string, model: string) => void;
}) {
  const { providers, provider, model, onChange } = props;
  const modelsId = useId();
  const chosen = providers.find((p) => p.id === provider);
  return (
    <>
      <label>
        Provider
        <select
          aria-label="Provider"
          value={provider}
          onChange={(e) =>
            onChange(
              e.target.value,
              providers.find((p) => p.id === e.target.value)?.defaultModel ?? "",
            )
          }
        >
          {providers.map((p) => (
            <option key={p.id} value={p.id} disabled={!p.configured && p.id !== provider}>
              {p.id}
              {p.configured ? "" : " (not configured)"}
            </option>
          ))}
        </select>
      </label>
      <label>
        Model
        <input list={modelsId} value={model} onChange={(e) => onChange(provider, e.target.value)} />
        <datalist id={modelsId}>
          {chosen?.models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      {chosen && !chosen.configured && (
        <p className="small error" role="note" data-testid="provider-not-configured">
          {chosen.id} is not configured on this server: its answers fail until its API key is set.
        </p>
      )}
    </>
  );
}
