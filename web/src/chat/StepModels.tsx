// With a route, which model served each model call of the answer: one timeline line per call,
// and for a step that fell back, the models tried first and why each could not answer.
import type { StepModel } from "../../../durable-objects/protocol/transcript";

const PROVIDER_NAMES: Record<string, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
  ollama: "Ollama",
};

export const modelName = (m: { provider: string; model: string }) =>
  `${PROVIDER_NAMES[m.provider] ?? m.provider} (${m.model})`;

export function StepModels({ entries }: { entries: readonly StepModel[] }) {
  if (entries.length === 0) return null;
  return (
    <ol className="step-models small" aria-label="Models that served the steps">
      {entries.map((e) => (
        <li key={e.seq} data-testid="step-model" data-fell-back={e.failed.length > 0}>
          <span className="muted">Step {e.step}:</span> {modelName(e)}
          {e.failed.length > 0 && (
            <>
              {" "}
              <span className="fallback-tag">fallback</span>
              <ul className="step-model-failures">
                {e.failed.map((f, i) => (
                  <li key={i}>
                    {modelName(f)} could not answer: {f.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </li>
      ))}
    </ol>
  );
}
