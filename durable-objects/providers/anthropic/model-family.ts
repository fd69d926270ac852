// What a Claude model's id says about how it is asked to think. No SDK here.

/** How a model takes a thinking request: Claude 4.6 and later adaptively (with an effort), Claude
 * 3.7 to 4.5 with a token budget, older models not at all. */
export type ThinkingForm = "adaptive" | "budget" | null;

/**
 * The major and minor version, written after the family (`claude-sonnet-4-6`) or before it
 * (`claude-3-7-sonnet-20250219`); a trailing date is not a version.
 */
function version(model: string): [number, number] | null {
  const tokens = model.split("-").filter((t) => !/^\d{8}$/.test(t));
  const at = tokens.findIndex((t) => /^\d+$/.test(t));
  if (at < 0) return null;
  const minor = tokens[at + 1] ?? "";
  return [Number(tokens[at]), /^\d+$/.test(minor) ? Number(minor) : 0];
}

/**
 * Models that think whether asked or not (Claude 5 and later, and names without a version such as
 * `claude-mythos-preview`); by default they leave the thinking's text out, and the newest return
 * the text between their tool calls as thinking.
 */
export function thinksByDefault(model: string): boolean {
  const v = version(model);
  return !v || v[0] >= 5;
}

/** A name without a version (`claude-mythos-preview`) is one of the newer, adaptive models. */
export function thinkingForm(model: string): ThinkingForm {
  const v = version(model);
  if (!v) return "adaptive";
  const [major, minor] = v;
  if (major > 4 || (major === 4 && minor >= 6)) return "adaptive";
  if (major === 4 || (major === 3 && minor >= 7)) return "budget";
  return null;
}
