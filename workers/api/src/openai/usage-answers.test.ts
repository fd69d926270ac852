// /v1 answers carry the turn's tokens (every model call of every step) in each API's own usage
// shape, so an OpenAI client's token accounting works: chat.completion `usage`, the last chunk
// when `stream_options.include_usage` asks, and a response's `usage`.
import type OpenAI from "openai";
import { openAiClient } from "../../../../tests/support/openai-client";
import { expect, it } from "vitest";
import { createUser } from "../../../../tests/support/helpers";

// usage-fixtures.ts: OpenAI reports 1,200 in (800 cached) and 300 out (120 reasoning).
const QUESTION = "cached and reasoning question";
const MODEL = "openai/gpt-5-mini";

/** A client of a new user each time: this test deployment allows 2,000 tokens a day per user. */
async function client(): Promise<OpenAI> {
  const user = await createUser();
  return openAiClient(user);
}

it("reports a chat completion's tokens, streamed or not", async () => {
  const completion = await (
    await client()
  ).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: QUESTION }],
  });
  const expected = {
    prompt_tokens: 1200,
    completion_tokens: 300,
    total_tokens: 1500,
    prompt_tokens_details: { cached_tokens: 800 },
    completion_tokens_details: { reasoning_tokens: 120 },
  };
  expect(completion.usage).toEqual(expected);

  const stream = await (
    await client()
  ).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: QUESTION }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  expect(chunks.at(-1)).toMatchObject({ choices: [], usage: expected });
  expect(chunks.slice(0, -1).every((c) => c.usage === undefined)).toBe(true);
}, 60_000);

it("reports a response's tokens, streamed or not", async () => {
  const expected = {
    input_tokens: 1200,
    input_tokens_details: { cached_tokens: 800 },
    output_tokens: 300,
    output_tokens_details: { reasoning_tokens: 120 },
    total_tokens: 1500,
  };
  const response = await (await client()).responses.create({ model: MODEL, input: QUESTION });
  expect(response.usage).toEqual(expected);

  const stream = await (
    await client()
  ).responses.create({ model: MODEL, input: QUESTION, stream: true });
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream)
    if (event.type === "response.completed") completed = event.response;
  expect(completed?.usage).toEqual(expected);
}, 60_000);
