// Model turns for the thinking-loop tests: tool calls by the names the model sees
// (`server__tool`), chained on the tool results the loop sends back.
import type { LLMock } from "@copilotkit/aimock";

const formatter = (items: unknown[]) => ({
  name: "response_formatter",
  arguments: JSON.stringify({ thinking: "Used three tools.", conversation: items }),
});

// Fixtures on tool results come first: a later step's request still carries the first question.
export function addLoopFixtures(mock: LLMock): void {
  // Three steps: one tool, then two at once, then the formatter.
  mock.on(
    { toolResultContains: "Echo: step one" },
    {
      toolCalls: [
        { id: "c2", name: "everything__get-tiny-image", arguments: "{}" },
        {
          id: "c3",
          name: "everything__get-structured-content",
          arguments: '{"location":"Chicago"}',
        },
      ],
    },
  );
  mock.on(
    { toolResultContains: "humidity" },
    {
      toolCalls: [
        formatter([
          { type: "text", content: "Here is what the tools found." },
          {
            type: "artifact",
            content: "A snippet",
            artifact: {
              type: "code",
              title: "Example snippet",
              content: "print('hello')",
              language: "python",
            },
          },
        ]),
      ],
    },
  );

  // Progress from a long-running tool reaches the client.
  mock.on(
    { toolResultContains: "Long running operation completed" },
    { content: "The long operation finished." },
  );

  // A tool error goes back to the model, which answers anyway.
  mock.on(
    { toolResultContains: "Invalid arguments" },
    { content: "The echo tool refused: it needs a message." },
  );

  // The model repeats the same call: reused, then the loop stops for lack of progress.
  mock.on(
    { toolResultContains: "Echo: again" },
    { toolCalls: [{ id: "r2", name: "everything__echo", arguments: '{"message":"again"}' }] },
  );
  mock.on(
    { toolResultContains: "You already made this exact call" },
    { toolCalls: [{ id: "r3", name: "everything__echo", arguments: '{"message":"again"}' }] },
  );
  // The questions that start each flow.
  mock.onMessage(/three step question/, {
    toolCalls: [{ id: "c1", name: "everything__echo", arguments: '{"message":"step one"}' }],
  });
  mock.onMessage(/long operation please/, {
    toolCalls: [
      {
        id: "p1",
        name: "everything__trigger-long-running-operation",
        arguments: '{"duration":1,"steps":3}',
      },
    ],
  });
  mock.onMessage(/broken echo please/, {
    toolCalls: [{ id: "e1", name: "everything__echo", arguments: '{"wrong":1}' }],
  });
  mock.onMessage(/repeat yourself/, {
    toolCalls: [{ id: "r1", name: "everything__echo", arguments: '{"message":"again"}' }],
  });
}
