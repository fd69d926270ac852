// The model providers' health, checked when the user asks: for each configured provider whether
// it answers, how fast its latest checks were, what to fix when it does not, and for Ollama the
// models the tunnel offers.
import { useId, useState } from "react";
import type { ProvidersHealth } from "../../../durable-objects/protocol/provider-health";
import { ApiFailure } from "../api";
import { settingsApi } from "./settings-api";

const NAMES: Record<string, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
  ollama: "Ollama",
};

export function ProviderHealthSection(props: { check?: () => Promise<ProvidersHealth> }) {
  const check = props.check ?? settingsApi.providersHealth;
  const [health, setHealth] = useState<ProvidersHealth | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setHealth(await check());
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : "Could not check the providers.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-section provider-health" aria-labelledby={headingId}>
      <h3 id={headingId}>Providers</h3>
      <div className="row">
        <button type="button" onClick={() => void run()} disabled={busy}>
          {busy ? "Checking…" : health ? "Check again" : "Check providers"}
        </button>
        {error && (
          <p role="alert" className="error small">
            {error}
          </p>
        )}
      </div>
      {health?.hint && <p className="muted small">{health.hint}</p>}
      {health && health.providers.length > 0 && (
        <ul aria-label="Provider health">
          {health.providers.map((p) => (
            <li key={p.id} data-reachable={p.reachable} data-testid={`health-${p.id}`}>
              <strong>{NAMES[p.id] ?? p.id}</strong>{" "}
              <span className="health-state">{p.reachable ? "reachable" : "not reachable"}</span>{" "}
              <span className="muted small">({p.latencyMs} ms)</span>
              {p.error && <p className="error small">{p.error}</p>}
              {p.recent.length > 1 && (
                <p className="muted small">
                  Latest checks:{" "}
                  {p.recent.map((c) => (c.reachable ? `${c.latencyMs} ms` : "failed")).join(", ")}
                </p>
              )}
              {p.models && (
                <p className="muted small">
                  Models the tunnel offers:{" "}
                  {p.models.length > 0 ? p.models.join(", ") : "none (pull one with ollama pull)"}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
