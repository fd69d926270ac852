// The form of an MCP server's question, built from its requested schema: one input per property,
// with the kind, bounds and choices the schema gives, and the values turned back into the content
// MCP expects (numbers as numbers, empty optional fields left out).
import {
  choicesOf,
  type ElicitationContent,
  type ElicitationField,
  type ElicitationSchema,
} from "../../../durable-objects/protocol/elicitation";

export type FieldKind =
  | "text"
  | "email"
  | "url"
  | "date"
  | "datetime"
  | "number"
  | "integer"
  | "boolean"
  | "choice"
  | "multi";

export interface FormField {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  kind: FieldKind;
  choices?: { value: string; label: string }[];
  min?: number;
  max?: number;
}

/** What the inputs hold: text for text-like and number inputs, flags, picked choices. */
export type FormValues = Record<string, string | boolean | string[]>;

export function fieldsOf(schema: ElicitationSchema): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, field]) => {
    const choices = choicesOf(field);
    const base = {
      name,
      label: field.title ?? name,
      required: required.has(name),
      ...(field.description && { description: field.description }),
    };
    if (field.type === "array")
      return {
        ...base,
        kind: "multi",
        choices: choices ?? [],
        ...bounds(field.minItems, field.maxItems),
      };
    if (choices) return { ...base, kind: "choice", choices };
    if (field.type === "boolean") return { ...base, kind: "boolean" };
    if (field.type === "number" || field.type === "integer")
      return { ...base, kind: field.type, ...bounds(field.minimum, field.maximum) };
    const text = field as Extract<ElicitationField, { minLength?: number }>;
    return { ...base, kind: textKind(text.format), ...bounds(text.minLength, text.maxLength) };
  });
}

function bounds(min: number | undefined, max: number | undefined) {
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}

function textKind(format: string | undefined): FieldKind {
  switch (format) {
    case "email":
      return "email";
    case "uri":
      return "url";
    case "date":
      return "date";
    case "date-time":
      return "datetime";
    default:
      return "text";
  }
}

/** The inputs' first values: the schema's defaults. */
export function initialValues(schema: ElicitationSchema): FormValues {
  const values: FormValues = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.type === "boolean") values[name] = field.default ?? false;
    else if (field.type === "array") values[name] = field.default ?? [];
    else if (field.default !== undefined) values[name] = String(field.default);
    else if (choicesOf(field)) values[name] = "";
  }
  return values;
}

/** The content sent back: typed values; an empty optional field is left out. */
export function toContent(fields: FormField[], values: FormValues): ElicitationContent {
  const content: ElicitationContent = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined) continue;
    if (typeof v === "boolean" || Array.isArray(v)) {
      content[f.name] = v;
      continue;
    }
    if (v.trim() === "") continue;
    if (f.kind === "number" || f.kind === "integer") content[f.name] = Number(v);
    // A datetime-local input has no zone: it is the user's local time, sent with its offset.
    else if (f.kind === "datetime") content[f.name] = localToIso(v);
    else content[f.name] = v;
  }
  return content;
}

function localToIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
