// An answer the provider ended short (at its max tokens, or by its filter) reaches an OpenAI
// client as OpenAI says it: finish_reason "length" or "content_filter"; a response "incomplete"
// with reason max_output_tokens or content_filter. Never as a whole answer.
import { expect, it } from "vitest";
import { createUser } from "../../../../tests/support/helpers";
import { openAiClient } from "../../../../tests/support/openai-client";
import {
  BLOCKED_BY_FILTER,
  CUT_AT_MAX_TOKENS,
} from "../../../../tests/support/openai-compat-fixtures";
import { DEFAULT_MODELS } from "../../../../durable-objects/providers/registry";
import { finishReasonOf, responseEndingOf } from "./turn-endings";

const ask = (content: string) => [{ role: "user" as const, content }];

it("reports an answer cut at max tokens as length, streamed or not, on both APIs", async () => {
  const client = openAiClient(await createUser());
  const whole = await client.chat.completions.create({
    model: "thinking-chat",
    messages: ask(CUT_AT_MAX_TOKENS),
  });
  expect(whole.choices[0]?.finish_reason).toBe("length");
  expect(whole.choices[0]?.message.content).toContain("This answer stops in the mid");

  const stream = await client.chat.completions.create({
    model: "thinking-chat",
    messages: ask(CUT_AT_MAX_TOKENS),
    stream: true,
  });
  const finishes: Array<string | null> = [];
  for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason ?? null);
  expect(finishes.filter(Boolean)).toEqual(["length"]);

  const response = await client.responses.create({
    model: "thinking-chat",
    input: CUT_AT_MAX_TOKENS,
  });
  expect(response.status).toBe("incomplete");
  expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
});

it("reports an answer the provider's filter stopped as content_filter", async () => {
  const client = openAiClient(await createUser());
  // OpenAI's own content_filter, through the conversation's OpenAI model.
  const model = `openai/${DEFAULT_MODELS.openai}`;
  const whole = await client.chat.completions.create({ model, messages: ask(BLOCKED_BY_FILTER) });
  expect(whole.choices[0]?.finish_reason).toBe("content_filter");
  const response = await client.responses.create({ model, input: BLOCKED_BY_FILTER });
  expect(response.incomplete_details).toEqual({ reason: "content_filter" });
});

it("keeps a cancelled or interrupted turn 'length', whatever the provider said", () => {
  expect(finishReasonOf({ status: "cancelled", cutShort: "content_filter" })).toBe("length");
  expect(finishReasonOf({ status: "complete" })).toBe("stop");
  expect(responseEndingOf({ status: "interrupted" }).incompleteDetails).toEqual({
    reason: "interrupted",
  });
});
