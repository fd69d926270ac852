// Tool arguments that break a tool's input schema are answered, as the SDK does, with an isError
// result the model can correct, but with a sentence per argument: which one, what it should be and
// what it was. The SDK's own reads "MCP error -32602: Input validation error: Invalid arguments
// for tool x: Invalid input: expected array, received undefined at series".
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** A tool's input schema as registered: a zod object, or the raw shape of one. */
export type InputSchema = z.ZodType | z.ZodRawShape;

const asSchema = (s: InputSchema): z.ZodType =>
  s instanceof z.ZodType ? s : z.object(s as z.ZodRawShape);

const MAX_SHOWN = 60;
const MAX_ISSUES = 5;

function pathText(path: PropertyKey[]): string {
  let text = "";
  for (const p of path) text += typeof p === "number" ? `[${p}]` : `${text ? "." : ""}${String(p)}`;
  return text;
}

function valueAt(args: unknown, path: PropertyKey[]): unknown {
  let v = args;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN)}…` : json;
}

const withArticle = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

/** How zod's own messages begin; any other message was written with the rule. */
const ZOD_WORDS = /^(Too (small|big)|Invalid [\w ]+|Unrecognized keys?)[:(]/;

const UNITS: Record<string, string> = { string: " characters", array: " items", set: " items" };

function issueSentence(issue: z.core.$ZodIssue, args: unknown): string {
  const name = issue.path.length > 0 ? `"${pathText(issue.path)}"` : "the arguments";
  const value = valueAt(args, issue.path);
  const was = ` (it was ${shown(value)})`;
  // A rule's own words, where the tool gave some ("the query is blank"), say it best.
  if (!ZOD_WORDS.test(issue.message))
    return `${name}: ${issue.message}${value === undefined ? "" : was}`;
  switch (issue.code) {
    case "invalid_type":
      return value === undefined
        ? `${name} is missing (expected ${withArticle(issue.expected)})`
        : `${name} must be ${withArticle(issue.expected)}${was}`;
    case "invalid_value": {
      const allowed =
        issue.values.length === 1
          ? shown(issue.values[0])
          : `one of ${issue.values.map(shown).join(", ")}`;
      return value === undefined
        ? `${name} is missing (expected ${allowed})`
        : `${name} must be ${allowed}${was}`;
    }
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const exclusive = issue.inclusive === false;
      const side =
        issue.code === "too_small"
          ? exclusive
            ? "more than"
            : "at least"
          : exclusive
            ? "less than"
            : "at most";
      const unit = UNITS[issue.origin] ?? "";
      const verb = unit ? "have" : "be";
      return `${name} must ${verb} ${side} ${String(bound)}${unit}${unit ? "" : was}`;
    }
    case "unrecognized_keys":
      return `${name} has ${issue.keys.length === 1 ? "a field" : "fields"} the tool does not take: ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    default:
      return `${name}: ${issue.message.replace(/^Invalid [\w ]+: /, "")}${value === undefined ? "" : was}`;
  }
}

/** Why `args` do not fit `tool`'s input schema, in sentences, or null when they do. */
export function argumentsProblem(tool: string, schema: InputSchema, args: unknown): string | null {
  const parsed = asSchema(schema).safeParse(args ?? {});
  if (parsed.success) return null;
  const issues = parsed.error.issues;
  const sentences = issues.slice(0, MAX_ISSUES).map((i) => issueSentence(i, args ?? {}));
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : "";
  return `Invalid arguments for ${tool}: ${sentences.join("; ")}${more}. Correct them and call ${tool} again (tools/list gives its input schema).`;
}

/**
 * Answers a tools/call whose arguments break its tool's input schema with an isError result, at
 * the transport, before the SDK's own check answers it in its words.
 */
export function answerInvalidArguments(
  transport: Transport,
  schemas: ReadonlyMap<string, InputSchema>,
): void {
  const deliver = transport.onmessage;
  transport.onmessage = ((message, extra) => {
    if (isJSONRPCRequest(message) && message.method === "tools/call") {
      const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
      const schema = typeof params?.name === "string" ? schemas.get(params.name) : undefined;
      const problem = schema && argumentsProblem(params!.name as string, schema, params!.arguments);
      if (problem) {
        const result = { content: [{ type: "text", text: problem }], isError: true };
        void transport.send({ jsonrpc: "2.0", id: message.id, result }).catch(() => undefined);
        return;
      }
    }
    deliver?.(message, extra);
  }) as Transport["onmessage"];
}
