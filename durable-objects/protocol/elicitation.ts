// What an MCP server may ask the user during a tool call (`elicitation/create`), and the answer.
// A form's schema is MCP's restricted JSON Schema: a flat object whose properties are strings
// (with length and format), numbers or integers (with bounds), booleans, and single or multiple
// choices. Shared by the Durable Object (it checks answers) and the web client (it builds the form
// and checks it before sending), so both refuse the same answers with the same words.
import { z } from "zod";

const described = { title: z.string().optional(), description: z.string().optional() };
const Choice = z.object({ const: z.string(), title: z.string() });

export const StringField = z.object({
  type: z.literal("string"),
  ...described,
  minLength: z.number().int().min(0).optional(),
  maxLength: z.number().int().min(0).optional(),
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
  default: z.string().optional(),
});
export const ChoiceField = z.object({
  type: z.literal("string"),
  ...described,
  enum: z.array(z.string()).optional(),
  // Display names of `enum` (the older way of titling choices).
  enumNames: z.array(z.string()).optional(),
  oneOf: z.array(Choice).optional(),
  default: z.string().optional(),
});
export const MultiChoiceField = z.object({
  type: z.literal("array"),
  ...described,
  minItems: z.number().int().min(0).optional(),
  maxItems: z.number().int().min(0).optional(),
  items: z.union([
    z.object({ type: z.literal("string"), enum: z.array(z.string()) }),
    z.object({ anyOf: z.array(Choice) }),
  ]),
  default: z.array(z.string()).optional(),
});
export const NumberField = z.object({
  type: z.enum(["number", "integer"]),
  ...described,
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
export const BooleanField = z.object({
  type: z.literal("boolean"),
  ...described,
  default: z.boolean().optional(),
});

const isChoice = (f: { enum?: unknown; oneOf?: unknown }) =>
  f.enum !== undefined || f.oneOf !== undefined;

export const ElicitationField = z.union([
  ChoiceField.refine(isChoice),
  StringField,
  NumberField,
  BooleanField,
  MultiChoiceField,
]);
export type ElicitationField = z.infer<typeof ElicitationField>;

export const ElicitationSchema = z.object({
  type: z.literal("object"),
  properties: z.record(z.string(), ElicitationField),
  required: z.array(z.string()).optional(),
});
export type ElicitationSchema = z.infer<typeof ElicitationSchema>;

export const ElicitationAction = z.enum(["accept", "decline", "cancel"]);
export type ElicitationAction = z.infer<typeof ElicitationAction>;

/** Form values: what MCP lets a user send back. */
export const ElicitationContent = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
);
export type ElicitationContent = z.infer<typeof ElicitationContent>;

/** The body of `POST /api/conversations/:id/elicitations/:elicitationId`. */
export const ElicitationAnswer = z
  .object({ action: ElicitationAction, content: ElicitationContent.optional() })
  .strict()
  // Values sent with a decline or cancel would be dropped: refused, so a client's bug shows.
  .refine((a) => a.action === "accept" || a.content === undefined, {
    message: "content goes with accept only: a decline or cancel sends no values",
    path: ["content"],
  });
export type ElicitationAnswer = z.infer<typeof ElicitationAnswer>;

/** The choices of a single or multiple choice field, with the names a person reads. */
export function choicesOf(field: ElicitationField): { value: string; label: string }[] | null {
  if (field.type === "array") {
    const items = field.items;
    return "anyOf" in items
      ? items.anyOf.map((c) => ({ value: c.const, label: c.title }))
      : items.enum.map((v) => ({ value: v, label: v }));
  }
  if (field.type !== "string") return null;
  if ("oneOf" in field && field.oneOf)
    return field.oneOf.map((c) => ({ value: c.const, label: c.title }));
  if ("enum" in field && field.enum) {
    const names = "enumNames" in field ? field.enumNames : undefined;
    return field.enum.map((v, i) => ({ value: v, label: names?.[i] ?? v }));
  }
  return null;
}

/** The zod schema an accepted answer's content must satisfy. */
export function contentSchema(schema: ElicitationSchema): z.ZodType<ElicitationContent> {
  const required = new Set(schema.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = fieldSchema(field);
    shape[name] = required.has(name) ? value : value.optional();
  }
  return z.strictObject(shape) as unknown as z.ZodType<ElicitationContent>;
}

function fieldSchema(field: ElicitationField): z.ZodType {
  const choices = choicesOf(field)?.map((c) => c.value);
  switch (field.type) {
    case "boolean":
      return z.boolean();
    case "number":
    case "integer": {
      let n = field.type === "integer" ? z.number().int() : z.number();
      if (field.minimum !== undefined) n = n.min(field.minimum);
      if (field.maximum !== undefined) n = n.max(field.maximum);
      return n;
    }
    case "array": {
      let a = z.array(z.enum(choices as [string, ...string[]]));
      if (field.minItems !== undefined) a = a.min(field.minItems);
      if (field.maxItems !== undefined) a = a.max(field.maxItems);
      return a;
    }
    case "string": {
      if (choices) return z.enum(choices as [string, ...string[]]);
      const f = field as z.infer<typeof StringField>;
      let s = z.string();
      if (f.minLength !== undefined) s = s.min(f.minLength);
      if (f.maxLength !== undefined) s = s.max(f.maxLength);
      if (f.format === "email") return s.pipe(z.email("Enter an email address."));
      if (f.format === "uri") return s.pipe(z.url("Enter a web address (URL)."));
      if (f.format === "date") return s.pipe(z.iso.date("Enter a date (YYYY-MM-DD)."));
      if (f.format === "date-time")
        return s.pipe(z.iso.datetime({ offset: true, error: "Enter a date and time." }));
      return s;
    }
  }
}

/** Checks an accepted answer; the problems name the fields by their titles. */
export function checkContent(
  schema: ElicitationSchema,
  content: unknown,
): { ok: true; content: ElicitationContent } | { ok: false; problems: string[] } {
  const given = content ?? {};
  const parsed = contentSchema(schema).safeParse(given);
  if (parsed.success) return { ok: true, content: parsed.data };
  const missing = (key: string) =>
    typeof given === "object" && !(key in (given as Record<string, unknown>));
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => {
      if (i.code === "unrecognized_keys") return `unknown field(s): ${i.keys.join(", ")}`;
      const key = String(i.path[0] ?? "");
      if (!key) return i.message;
      const title = schema.properties[key]?.title ?? key;
      return `${title}: ${missing(key) ? "required" : i.message}`;
    }),
  };
}
