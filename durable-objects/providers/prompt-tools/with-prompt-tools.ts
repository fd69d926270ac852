// Tool calling for models without native tools: the tools are described in the system prompt,
// the model answers with fenced tool-call blocks, and the results go back as text the same way.
// Wraps any provider, so the loop sees the same tool_call events as from a native model (the
// response_formatter included: it is a tool like the others).
import type {
  ModelProvider,
  ModelRequest,
  NeutralMessage,
  StreamEvent,
  ToolDefinition,
} from "../types";
import { ToolBlockParser } from "./tool-block-parser";

export function withPromptTools(provider: ModelProvider): ModelProvider {
  return {
    id: provider.id,
    async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      const tools = request.tools ?? [];
      if (tools.length === 0 || request.toolChoice === "none") {
        yield* provider.stream({ ...request, messages: asText(request.messages) });
        return;
      }
      const { tools: _offered, toolChoice, ...rest } = request;
      const parser = new ToolBlockParser();
      let calls = 0;
      const parsed = function* (events: ReturnType<ToolBlockParser["push"]>) {
        for (const e of events) {
          if (e.type === "tool_call") calls += 1;
          yield e;
        }
      };
      // The provider's usage comes before its finish, but the text it held may still hold a call:
      // the usage waits for the parser's last events, as a provider's own come before its usage.
      let usage: StreamEvent | null = null;
      const ending = function* () {
        yield* parsed(parser.end());
        if (usage) yield usage;
        usage = null;
      };
      for await (const event of provider.stream({
        ...rest,
        system: [request.system, toolPrompt(tools, toolChoice)].filter(Boolean).join("\n\n"),
        messages: asText(request.messages),
      })) {
        if (event.type === "text_delta") yield* parsed(parser.push(event.text));
        else if (event.type === "usage") usage = event;
        else if (event.type === "finish") {
          yield* ending();
          // Cut at max tokens, the last block may be cut too: the loop must know it.
          const reason = calls > 0 && event.reason !== "length" ? "tool_calls" : event.reason;
          yield { ...event, reason };
        } else if (event.type === "error") {
          yield* ending();
          yield event;
        } else yield event;
      }
      if (usage) yield usage;
    },
  };
}

/** The system prompt's part that teaches the block format and lists the tools. */
export function toolPrompt(tools: ToolDefinition[], choice: ModelRequest["toolChoice"]): string {
  const list = tools
    .map(
      (t) =>
        `- ${t.name}: ${t.description}\n  arguments (JSON Schema): ${JSON.stringify(t.inputSchema)}`,
    )
    .join("\n");
  const must =
    typeof choice === "object"
      ? `\n\nNow call ${choice.name} (and nothing else) with one block.`
      : choice === "required"
        ? "\n\nAnswer with at least one tool-call block."
        : "";
  return (
    "You can call tools. To call one, write a block exactly like this, one block per call:\n" +
    '```tool_call\n{"name": "<tool name>", "arguments": {<arguments as JSON>}}\n```\n' +
    "Then stop and wait: the results come back in the next message. The tools:\n" +
    list +
    must
  );
}

/** The history in plain text: calls as the blocks the model wrote, results as a user message. */
export function asText(messages: NeutralMessage[]): NeutralMessage[] {
  return messages.map((m) => {
    if (m.role === "tool")
      return {
        role: "user",
        content: m.content.flatMap((p) =>
          p.type === "tool_result"
            ? [
                {
                  type: "text" as const,
                  text: `Result of ${p.name} (${p.isError ? "error" : "ok"}):\n${p.content
                    .map((c) => (c.type === "text" ? c.text : `[${c.mediaType} image]`))
                    .join("\n")}`,
                },
              ]
            : [],
        ),
      };
    if (m.role !== "assistant") return m;
    return {
      role: "assistant",
      content: m.content.map((p) =>
        p.type === "tool_call"
          ? {
              type: "text" as const,
              text: `\n\`\`\`tool_call\n${JSON.stringify({ name: p.name, arguments: p.arguments })}\n\`\`\`\n`,
            }
          : p,
      ),
    };
  });
}
