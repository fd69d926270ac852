// Reads JSON that was cut off (a tool result's summary keeps only its first 200 characters):
// closes the open string, drops the half-written last entry and closes the open brackets.
export type PartialJson = { value: unknown; complete: boolean };

export function parsePartialJson(text: string): PartialJson | null {
  const source = text.trim().replace(/…$/, "");
  if (!/^[[{]/.test(source)) return null;
  try {
    return { value: JSON.parse(source), complete: true };
  } catch {
    // Cut off: repaired below.
  }
  let cut = source;
  // Each try drops one more trailing entry; a few are enough for a 200-character head.
  for (let tries = 0; tries < 8 && cut.length > 1; tries++) {
    const value = tryClosed(cut);
    if (value !== undefined) return { value, complete: false };
    const lastComma = lastCommaOutsideStrings(cut);
    if (lastComma <= 0) break;
    cut = cut.slice(0, lastComma);
  }
  return null;
}

/** The text with its open string and brackets closed, parsed; undefined if that is not JSON. */
function tryClosed(text: string): unknown {
  const open: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") open.push(ch === "{" ? "}" : "]");
    else if (ch === "}" || ch === "]") open.pop();
  }
  let closed = escaped ? text.slice(0, -1) : text;
  if (inString) closed += '"';
  closed = closed.replace(/[,:]\s*$/, (m) => (m.startsWith(":") ? ":null" : ""));
  closed += open.reverse().join("");
  try {
    return JSON.parse(closed);
  } catch {
    return undefined;
  }
}

function lastCommaOutsideStrings(text: string): number {
  let inString = false;
  let escaped = false;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === ",") last = i;
  }
  return last;
}
