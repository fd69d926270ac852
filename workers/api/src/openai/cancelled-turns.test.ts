// A turn cancelled from the web client while an OpenAI client waits for it: the client is told the
// answer was cut short (finish_reason "length"; a response "cancelled" whose message item is
// "incomplete"), streamed or not, never that it is a whole answer.
import type OpenAI from "openai";
import { openAiClient } from "../../../../tests/support/openai-client";
import { expect, it } from "vitest";
import { createConversation, createUser } from "../../../../tests/support/helpers";
import { TestSocket } from "../../../../tests/support/ws-client";

/**
 * Runs `ask` in a new conversation (global-setup.ts answers "slow answer" 4 characters every
 * 400 ms) and cancels its turn from a WebSocket, as the web client's Cancel does, once the answer
 * has begun. A new user each time: a cancelled call's tokens count, and the test deployment
 * allows 2,000 a day per user.
 */
async function cancelledWhile<T>(
  ask: (client: OpenAI, headers: { "X-Conversation-Id": string }) => Promise<T>,
) {
  const user = await createUser();
  const { id } = await createConversation(user);
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0 });
  const answer = ask(openAiClient(user), { "X-Conversation-Id": id });
  await ws.until((frames) => frames.some((f) => f.type === "text_delta"));
  ws.send({ type: "cancel" });
  try {
    return await answer;
  } finally {
    ws.close();
  }
}

const messages = [{ role: "user" as const, content: "A slow answer, then a cancel." }];

it("ends a cancelled chat completion with finish_reason length, streamed or not", async () => {
  const completion = await cancelledWhile((client, headers) =>
    client.chat.completions.create({ model: "thinking-chat", messages }, { headers }),
  );
  expect(completion.choices[0]?.finish_reason).toBe("length");
  expect(completion.choices[0]?.message.content).toBeTruthy();

  const finishes = await cancelledWhile(async (client, headers) => {
    const stream = await client.chat.completions.create(
      { model: "thinking-chat", messages, stream: true },
      { headers },
    );
    const seen: (string | null)[] = [];
    for await (const chunk of stream) seen.push(chunk.choices[0]?.finish_reason ?? null);
    return seen;
  });
  expect(finishes.at(-1)).toBe("length");
}, 60_000);

it("answers a cancelled turn with a cancelled response, streamed or not", async () => {
  const response = await cancelledWhile((client, headers) =>
    client.responses.create({ model: "thinking-chat", input: messages[0]!.content }, { headers }),
  );
  expect(response.status).toBe("cancelled");
  expect(response.output.at(-1)).toMatchObject({ type: "message", status: "incomplete" });

  const events = await cancelledWhile(async (client, headers) => {
    const stream = await client.responses.create(
      { model: "thinking-chat", input: messages[0]!.content, stream: true },
      { headers },
    );
    const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) seen.push(event);
    return seen;
  });
  const last = events.at(-1);
  expect(last?.type).toBe("response.incomplete");
  expect(last).toMatchObject({ response: { status: "cancelled" } });
  expect(events.filter((e) => e.type === "response.completed")).toEqual([]);
}, 60_000);
