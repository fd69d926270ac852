// Tool-call arguments arrive as JSON text in pieces; a call is only complete when it parses.
// Small models often write almost-JSON (single quotes, trailing commas, unquoted keys, a missing
// brace): `jsonrepair` mends that before we give up. Arguments that still do not parse make a
// tool_call event with `argumentsError` set, so the loop can send the error back to the model
// instead of failing the turn.
import { jsonrepair } from "jsonrepair";
import type { StreamEvent } from "./types";

export type ParsedArguments = { ok: true; value: unknown } | { ok: false; message: string };

export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const repaired = repairJson(text);
    if (repaired === undefined)
      return {
        ok: false,
        message: `The tool arguments are not valid JSON (${err instanceof Error ? err.message : "parse error"}).`,
      };
    value = repaired;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, message: "The tool arguments must be a JSON object." };
  return { ok: true, value };
}

function repairJson(text: string): unknown {
  try {
    return JSON.parse(jsonrepair(text));
  } catch {
    return undefined;
  }
}

export function toolCallEvent(
  id: string,
  name: string,
  json: string,
  extra: { signature?: string } = {},
): Extract<StreamEvent, { type: "tool_call" }> {
  const args = parseToolArguments(json);
  return args.ok
    ? { type: "tool_call", id, name, arguments: args.value, ...extra }
    : { type: "tool_call", id, name, arguments: json, argumentsError: args.message, ...extra };
}

/** An id for a call the provider did not name; unique across the conversation, ≤ 40 characters. */
export const newCallId = () => `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;

/** Arguments of a call in the history as JSON text, for wire formats that take text (OpenAI's). */
export const argumentsText = (args: unknown): string =>
  typeof args === "string" ? args : JSON.stringify(args ?? {});

/** Arguments of a call in the history as an object, for wire formats that take an object. */
export function argumentsObject(args: unknown): Record<string, unknown> {
  if (typeof args === "string") {
    const parsed = parseToolArguments(args);
    return parsed.ok ? (parsed.value as Record<string, unknown>) : {};
  }
  return args && typeof args === "object" && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : {};
}
