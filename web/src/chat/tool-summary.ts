// One line a person can read for a tool call, made from its result summary (which is the first
// 200 characters of the result, often JSON): counts, titles and names instead of raw fragments,
// and errors as sentences. The raw summary stays available when the call is expanded.
import { parsePartialJson } from "./partial-json";

export interface CallForSummary {
  status: "started" | "done" | "failed" | "interrupted";
  summary?: string | undefined;
}

const MAX_LINE = 140;
const NAME_KEYS = ["title", "name", "label", "displayName", "id", "pmid", "nctId"] as const;

export function toolCallLine(call: CallForSummary): string {
  if (call.status === "started") return "Running…";
  const raw = (call.summary ?? "").trim();
  if (call.status === "interrupted" || raw === "interrupted")
    return "Interrupted before it finished.";
  if (call.status === "failed") return errorSentence(raw);
  return describeResult(raw);
}

/** A failure's summary as a sentence: "unknown tool x" → "Failed: unknown tool x." */
export function errorSentence(raw: string): string {
  if (!raw) return "Failed without saying why.";
  const text = oneLine(raw);
  return `Failed: ${text}${/[.!?…]$/.test(text) ? "" : "."}`;
}

function describeResult(raw: string): string {
  if (!raw || raw === "(no output)") return "Finished with no output.";
  const reused = /^reused the earlier result: /.exec(raw);
  if (reused) return `Reused an earlier result: ${describeResult(raw.slice(reused[0].length))}`;
  // The loop appends "(n artifacts)" when the result made artifacts.
  const made = /\s*\((\d+) artifacts?\)$/.exec(raw);
  const body = made ? raw.slice(0, made.index) : raw;
  const artifacts = made ? ` · ${plural(Number(made[1]), "artifact")}` : "";
  const line = describeBody(body);
  return `${line || "Finished."}${artifacts}`;
}

/** Plain text, JSON, or a sentence followed by JSON ("2 articles. {"bibliography": …"). */
function describeBody(body: string): string {
  const jsonAt = body.search(/[[{]/);
  const lead = (jsonAt < 0 ? body : body.slice(0, jsonAt)).trim();
  const parsed = jsonAt < 0 ? null : parsePartialJson(body.slice(jsonAt));
  if (!parsed) return oneLine(body);
  if (!lead) return describeValue(parsed.value, parsed.complete);
  // The tool's own sentence leads; the JSON adds the names it found.
  const names = namesIn(parsed.value, parsed.complete);
  const sentence = lead.replace(/[.:]$/, "");
  return oneLine(names ? `${sentence}: ${names}` : sentence);
}

/** “First”, “Second”, … of the first list in a value, or null when it names nothing. */
function namesIn(value: unknown, complete: boolean): string | null {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === "object"
      ? Object.values(value).find(Array.isArray)
      : undefined;
  if (!list) return null;
  const items = complete ? list : list.slice(0, -1);
  const names = items
    .map((i) => (i && typeof i === "object" ? nameOf(i as Record<string, unknown>) : null))
    .filter((n): n is string => !!n);
  if (names.length === 0) return null;
  const more = names.length > 2 || !complete ? ", …" : "";
  return `${names
    .slice(0, 2)
    .map((n) => `“${n}”`)
    .join(", ")}${more}`;
}

function describeValue(value: unknown, complete: boolean): string {
  if (Array.isArray(value)) return describeList(value, complete, null);
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const own = nameOf(record);
    if (own) return own;
    const lists = Object.entries(record).filter(([, v]) => Array.isArray(v));
    // One list inside (e.g. {"bibliography": [...]}, {"studies": [...], "nextPageToken": …}).
    if (lists.length >= 1) {
      const [key, list] = lists[0]!;
      return describeList(list as unknown[], complete, words(key));
    }
    const keys = Object.keys(record);
    return keys.length === 0
      ? "An empty result."
      : `Fields: ${oneLine(keys.slice(0, 5).join(", "))}`;
  }
  return oneLine(String(value));
}

/** `noun` is the list's key ("bibliography (3): …"); a bare list counts items ("3 items: …"). */
function describeList(whole: unknown[], complete: boolean, noun: string | null): string {
  // In a cut-off list the last entry is half-written: its name may be cut or missing.
  const list = complete ? whole : whole.slice(0, -1);
  const names = list
    .map((item) =>
      item && typeof item === "object" ? nameOf(item as Record<string, unknown>) : null,
    )
    .filter((n): n is string => !!n);
  // A cut-off list's length is not the real count: say "at least" instead of a wrong number.
  const n = complete ? String(list.length) : `${list.length}+`;
  const count = noun ? `${noun} (${n})` : `${n} item${n === "1" ? "" : "s"}`;
  if (list.length === 0) return complete ? `No ${noun ?? "items"}.` : `${noun ?? "items"}…`;
  const shown = names.slice(0, 2).map((n) => `“${n}”`);
  const more = names.length > 2 || !complete ? ", …" : "";
  return oneLine(shown.length ? `${count}: ${shown.join(", ")}${more}` : count);
}

function nameOf(item: Record<string, unknown>): string | null {
  for (const key of NAME_KEYS) {
    const v = item[key];
    if (typeof v === "string" && v.trim()) return v.trim();
    if (typeof v === "number") return String(v);
  }
  return null;
}

const words = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
