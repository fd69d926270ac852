// The response_formatter tool: how a model hands over its final, structured answer.
import { z } from "zod";
import type { ToolDefinition } from "../providers/types";

export const FORMATTER_TOOL = "response_formatter";

export const FormatterArtifact = z.object({
  type: z.string().min(1, "artifact.type is required"),
  title: z.string().min(1, "artifact.title is required"),
  content: z.string().min(1, "artifact.content is required"),
  language: z.string().optional(),
});

const FormatterItem = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("text"),
    content: z.string().min(1, "a text item needs non-empty content"),
  }),
  z.object({
    type: z.literal("artifact"),
    content: z.string().optional(),
    artifact: FormatterArtifact,
  }),
]);

export const FormatterOutput = z.object({
  thinking: z.string().optional(),
  conversation: z
    .array(FormatterItem, { error: "conversation must be an array of items, never a string" })
    .min(1, "conversation must have at least one item"),
});
export type FormatterOutput = z.infer<typeof FormatterOutput>;

export const formatterTool: ToolDefinition = {
  name: FORMATTER_TOOL,
  description:
    "Format your final response for the user. Call this tool when you have completed your thinking and are ready to respond.",
  inputSchema: {
    type: "object",
    properties: {
      thinking: {
        type: "string",
        description: "Optional brief summary of your reasoning process (1-2 sentences)",
      },
      conversation: {
        type: "array",
        description: "Array of conversation items (text and/or artifacts)",
        items: {
          type: "object",
          properties: {
            type: {
              type: "string",
              enum: ["text", "artifact"],
              description: "Type of conversation item",
            },
            content: {
              type: "string",
              description: "For text: markdown content. For artifact: brief description.",
            },
            artifact: {
              type: "object",
              description: "Required if type is 'artifact'",
              properties: {
                type: {
                  type: "string",
                  description:
                    "Artifact type (code, text/markdown, application/vnd.knowledge-graph, application/json, ...)",
                },
                title: { type: "string", description: "Descriptive title for the artifact" },
                content: { type: "string", description: "The actual artifact content" },
                language: {
                  type: "string",
                  description: "Programming language (for code artifacts only)",
                },
              },
              required: ["type", "title", "content"],
            },
          },
          required: ["type"],
        },
      },
    },
    required: ["conversation"],
  },
};

export type FormatterCheck = { ok: true; value: FormatterOutput } | { ok: false; errors: string };

/** Validates formatter arguments; the errors are written for the model to fix its call. */
export function checkFormatterOutput(args: unknown): FormatterCheck {
  // Models sometimes send the conversation as a JSON string; accept it when it parses.
  const candidate =
    args &&
    typeof args === "object" &&
    typeof (args as { conversation?: unknown }).conversation === "string"
      ? tryParseConversation(args as { conversation: string })
      : args;
  const parsed = FormatterOutput.safeParse(candidate);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = parsed.error.issues
    .map((i) => `- ${i.path.join(".") || "(arguments)"}: ${i.message}`)
    .join("\n");
  return {
    ok: false,
    errors: `The response_formatter arguments are invalid:\n${errors}\nCall response_formatter again with {"conversation": [{"type": "text", "content": "..."}]} (artifacts as {"type": "artifact", "artifact": {"type", "title", "content"}}).`,
  };
}

function tryParseConversation(args: { conversation: string }): unknown {
  try {
    return { ...args, conversation: JSON.parse(args.conversation) };
  } catch {
    return args;
  }
}
