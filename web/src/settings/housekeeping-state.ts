// The "Titles and summaries" form's rules as pure functions: which model writes titles and
// summaries (automatic, or one the user names) and when the rolling summary starts, checked the
// way the API checks them so mistakes show before sending.
import type { ConversationSettings, RouteModel } from "../../../durable-objects/protocol/rest";

/** The API's bounds and default for `summaryThresholdPercent`. */
export const SUMMARY_THRESHOLD = { min: 5, max: 90, default: 25 } as const;
/** The select's value for "let the server pick the cheap model". */
export const AUTOMATIC = "";

export interface HousekeepingDraft {
  /** A provider id, or AUTOMATIC. */
  provider: string;
  model: string;
  /** The threshold as typed; empty means the default. */
  threshold: string;
}

export function housekeepingDraftOf(settings: ConversationSettings): HousekeepingDraft {
  return {
    provider: settings.housekeepingModel?.provider ?? AUTOMATIC,
    model: settings.housekeepingModel?.model ?? "",
    threshold:
      settings.summaryThresholdPercent === undefined
        ? ""
        : String(settings.summaryThresholdPercent),
  };
}

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The conversation's settings with the draft applied: an automatic model or an empty threshold
 * removes the setting, so the server's default applies again.
 */
export function housekeepingSettings(
  draft: HousekeepingDraft,
  settings: ConversationSettings,
): Checked<ConversationSettings> {
  const { housekeepingModel: _model, summaryThresholdPercent: _threshold, ...rest } = settings;
  const next: ConversationSettings = { ...rest };
  if (draft.provider !== AUTOMATIC) {
    const model = draft.model.trim();
    if (!model) return { ok: false, error: "Name the model that writes titles and summaries." };
    next.housekeepingModel = { provider: draft.provider as RouteModel["provider"], model };
  }
  const text = draft.threshold.trim();
  if (text) {
    const value = Number(text);
    const { min, max } = SUMMARY_THRESHOLD;
    if (!Number.isInteger(value) || value < min || value > max)
      return {
        ok: false,
        error: `The summary threshold is a whole number from ${min} to ${max} (per cent of the context window).`,
      };
    next.summaryThresholdPercent = value;
  }
  return { ok: true, value: next };
}
