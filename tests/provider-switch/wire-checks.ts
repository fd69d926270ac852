// What a provider accepts as a history with an earlier tool call, read from the raw request body
// in that provider's own wire format. Each check returns the call and result it found, or throws
// with what breaks the provider's rules.
import { z } from "zod";
import type { ProviderId } from "../../durable-objects/providers/types";

export interface CarriedCall {
  /** The call's id where the wire format has one. */
  id?: string;
  name: string;
  arguments: unknown;
  result: string;
}

const fail = (message: string): never => {
  throw new Error(message);
};

const AnthropicBody = z.object({
  messages: z.array(
    z.object({
      role: z.enum(["user", "assistant"]),
      content: z.union([z.string(), z.array(z.object({ type: z.string() }).passthrough())]),
    }),
  ),
});

/** Turns alternate from the user's; each tool_use id is safe and answered first thing next turn. */
function anthropic(body: unknown): CarriedCall[] {
  const { messages } = AnthropicBody.parse(body);
  if (messages[0]?.role !== "user") fail("the first turn is not the user's");
  const found: CarriedCall[] = [];
  messages.forEach((m, i) => {
    if (i > 0 && messages[i - 1]!.role === m.role) fail(`two ${m.role} turns in a row at ${i}`);
    if (typeof m.content === "string") return;
    for (const block of m.content) {
      if (block.type === "thinking" && !block.signature) fail("a thinking block has no signature");
      if (block.type !== "tool_use") continue;
      const id = String(block.id);
      if (!/^[a-zA-Z0-9_-]+$/.test(id)) fail(`tool_use id ${id} breaks Anthropic's id rule`);
      if (found.some((f) => f.id === id)) fail(`tool_use id ${id} is used twice`);
      const next = messages[i + 1];
      const answers = typeof next?.content === "string" ? [] : (next?.content ?? []);
      const results = answers.filter((b) => b.type === "tool_result");
      // Anthropic wants the results before anything else in the user turn that follows.
      if (answers.slice(0, results.length).some((b) => b.type !== "tool_result"))
        fail("tool results do not come first in the turn after the call");
      const result = results.find((b) => b.tool_use_id === id);
      if (!result) fail(`tool_use ${id} has no tool_result in the next turn`);
      found.push({
        id,
        name: String(block.name),
        arguments: block.input,
        result: JSON.stringify(result!.content),
      });
    }
  });
  return found;
}

const ResponsesBody = z.object({
  input: z.array(
    z
      .object({
        type: z.string().optional(),
        role: z.string().optional(),
        call_id: z.string().optional(),
        name: z.string().optional(),
        arguments: z.string().optional(),
        output: z.unknown().optional(),
      })
      .passthrough(),
  ),
});

/**
 * OpenAI's Responses API (what the app asks OpenAI through): each function_call item is answered
 * by one function_call_output with its call id, after it and before the next user message, and
 * no output answers a call that is not there.
 */
function openai(body: unknown): CarriedCall[] {
  const { input } = ResponsesBody.parse(body);
  const found: CarriedCall[] = [];
  input.forEach((item, i) => {
    if (
      item.type === "function_call_output" &&
      !input.slice(0, i).some((p) => p.type === "function_call" && p.call_id === item.call_id)
    )
      fail(`function_call_output ${item.call_id} answers no call`);
    if (item.type !== "function_call") return;
    if (input.some((p, k) => k !== i && p.type === "function_call" && p.call_id === item.call_id))
      fail(`call id ${item.call_id} is used twice`);
    const rest = input.slice(i + 1);
    const nextUser = rest.findIndex((p) => p.role === "user");
    const result = (nextUser < 0 ? rest : rest.slice(0, nextUser)).find(
      (p) => p.type === "function_call_output" && p.call_id === item.call_id,
    );
    if (!result) fail(`function_call ${item.call_id} is not answered before the next user message`);
    found.push({
      name: item.name ?? "",
      arguments: JSON.parse(item.arguments ?? "{}") as unknown,
      result: JSON.stringify(result!.output),
    });
  });
  return found;
}

const GeminiPart = z
  .object({
    text: z.string().optional(),
    thoughtSignature: z.string().optional(),
    functionCall: z
      .object({
        id: z.string().optional(),
        name: z.string(),
        args: z.record(z.string(), z.unknown()),
      })
      .optional(),
    functionResponse: z
      .object({
        id: z.string().optional(),
        name: z.string(),
        response: z.record(z.string(), z.unknown()),
      })
      .optional(),
  })
  .passthrough();
const GeminiBody = z.object({
  contents: z.array(z.object({ role: z.enum(["user", "model"]), parts: z.array(GeminiPart) })),
});

/**
 * A model turn's functionCalls are answered by functionResponses (same name, same id when there
 * is one) in the user turn right after; Gemini 3 wants a thought signature on the first call of a
 * replayed turn, and a call another provider made can only carry Google's placeholder.
 */
function gemini(body: unknown): CarriedCall[] {
  const { contents } = GeminiBody.parse(body);
  if (contents[0]?.role !== "user") fail("the first content is not the user's");
  const found: CarriedCall[] = [];
  contents.forEach((c, i) => {
    const calls = c.parts.filter((p) => p.functionCall);
    if (calls.length === 0) return;
    if (c.role !== "model") fail("a functionCall outside a model turn");
    if (calls[0]!.thoughtSignature !== "skip_thought_signature_validator")
      fail("the replayed call carries no thought signature Gemini 3 accepts");
    const responses = contents[i + 1]?.parts.filter((p) => p.functionResponse) ?? [];
    if (responses.length !== calls.length) fail("not one functionResponse per functionCall");
    for (const { functionCall: call } of calls) {
      const response = responses.find(
        (r) =>
          r.functionResponse!.name === call!.name &&
          (call!.id === undefined || r.functionResponse!.id === call!.id),
      );
      if (!response) fail(`functionCall ${call!.name} has no functionResponse`);
      found.push({
        name: call!.name,
        arguments: call!.args,
        result: JSON.stringify(response!.functionResponse!.response),
      });
    }
  });
  return found;
}

const OllamaBody = z.object({
  messages: z.array(
    z
      .object({
        role: z.enum(["system", "user", "assistant", "tool"]),
        content: z.string(),
        tool_name: z.string().optional(),
        tool_calls: z
          .array(
            z.object({
              function: z.object({
                name: z.string(),
                arguments: z.record(z.string(), z.unknown()),
              }),
            }),
          )
          .optional(),
      })
      .passthrough(),
  ),
});

/** Calls carry object arguments; each is followed by a `tool` message naming its tool. */
function ollama(body: unknown): CarriedCall[] {
  const { messages } = OllamaBody.parse(body);
  const found: CarriedCall[] = [];
  messages.forEach((m, i) => {
    if (!m.tool_calls) return;
    const following = messages.slice(i + 1, i + 1 + m.tool_calls.length);
    m.tool_calls.forEach(({ function: call }, k) => {
      const result = following[k];
      if (result?.role !== "tool" || result.tool_name !== call.name)
        fail(`call ${call.name} is not followed by its tool message`);
      found.push({ name: call.name, arguments: call.arguments, result: result!.content });
    });
  });
  return found;
}

export const carriedCalls: Record<ProviderId, (body: unknown) => CarriedCall[]> = {
  anthropic,
  openai,
  gemini,
  ollama,
};

/** The endpoint each provider's SDK posts a chat request to. */
export const providerPath: Record<ProviderId, RegExp> = {
  anthropic: /^\/v1\/messages/,
  openai: /^\/v1\/responses/,
  gemini: /^\/v1beta\/models\/[^:]+:streamGenerateContent/,
  ollama: /^\/api\/chat/,
};
