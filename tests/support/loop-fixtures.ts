// Model turns for the thinking-loop tests: tool calls by the names the model sees
// (`server__tool`), chained on the tool results the loop sends back.
import type { LLMock } from "@copilotkit/aimock";

const formatter = (items: unknown[]) => ({
  name: "response_formatter",
  arguments: JSON.stringify({ thinking: "Used three tools.", conversation: items }),
});

// Fixtures on tool results come first: a later step's request still carries the first question.
export function addLoopFixtures(mock: LLMock): void {
  // Two held steps on one server (tests/support/changing-server.ts): Settings change between.
  mock.on(
    { userMessage: /hold two steps please/, toolCallId: "hs1" },
    { toolCalls: [{ id: "hs2", name: "changing-hold__hold_step", arguments: '{"n":2}' }] },
  );
  mock.on(
    { userMessage: /hold two steps please/, toolCallId: "hs2" },
    { content: "Both held steps are done." },
  );
  mock.onMessage(/hold two steps please/, {
    toolCalls: [{ id: "hs1", name: "changing-hold__hold_step", arguments: '{"n":1}' }],
  });
  // A tool added by a call is used at the turn's next step.
  mock.on(
    { userMessage: /add and use a tool please/, toolCallId: "lu1" },
    { toolCalls: [{ id: "lu2", name: "changing__new_tool", arguments: "{}" }] },
  );
  mock.on(
    { userMessage: /add and use a tool please/, toolCallId: "lu2" },
    { content: "Used the tool it just added." },
  );
  mock.onMessage(/add and use a tool please/, {
    toolCalls: [{ id: "lu1", name: "changing__add_tool", arguments: "{}" }],
  });
  // A call that failed is not reused: the model's retry runs again. (Before the generic
  // "Invalid arguments" answer below.)
  mock.on(
    { userMessage: /retry the broken echo/, toolCallId: "e2" },
    { toolCalls: [{ id: "e3", name: "everything__echo", arguments: '{"wrong":1}' }] },
  );
  mock.on(
    { userMessage: /retry the broken echo/, toolCallId: "e3" },
    { content: "Retried; the echo still refuses." },
  );
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

  // A tool cut off at its server's ceiling: the model is told and answers.
  mock.on({ toolResultContains: "ran longer than" }, { content: "The tool took too long." });

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
  // The formatter gets it wrong once, is told why, and repairs it.
  mock.on(
    { userMessage: /format badly once/, toolResultContains: "arguments are invalid" },
    { toolCalls: [formatter([{ type: "text", content: "Repaired answer." }])] },
  );
  // The formatter never gets it right: after two repairs the plain text is used.
  mock.on(
    { userMessage: /format badly always/, toolResultContains: "arguments are invalid" },
    {
      content: "Plain text after all.",
      toolCalls: [{ id: "f9", name: "response_formatter", arguments: '{"conversation":[]}' }],
    },
  );
  // Two servers with the same tool names: each call reaches the server the model named.
  mock.on(
    { toolResultContains: "Echo: to the second" },
    { content: "The second server answered." },
  );
  // The server's tool list changes: the next turn sees the new tool.
  // Claude thinks, calls a tool, then answers: its signed thinking must come back with the call.
  mock.on(
    { toolResultContains: "Echo: thought first" },
    { content: "Checked by echo.", reasoning: "The echo came back as expected." },
  );
  mock.onMessage(/think, then echo/, {
    reasoning: "An echo will confirm it.",
    reasoningSignature: "sig-echo-1",
    toolCalls: [{ id: "th1", name: "everything__echo", arguments: '{"message":"thought first"}' }],
  });
  mock.on({ toolResultContains: "new_tool was added" }, { content: "A new tool is available." });
  mock.on({ toolResultContains: "new_tool ran" }, { content: "The new tool answered." });

  // Text streamed before a tool call stays in the completed answer, before the formatter's.
  mock.on(
    { toolResultContains: "Echo: looked up" },
    { toolCalls: [formatter([{ type: "text", content: "Found it." }])] },
  );

  // A call cut off by a restart is reported as interrupted; the model says so.
  mock.on({ toolResultContains: "was interrupted" }, { content: "The operation was interrupted." });

  // A page a server required declined (-32042): before the approvals' own "the user declined".
  mock.on(
    { toolResultContains: "needs a page of the server opened first" },
    { content: "Not run, as you declined the page." },
  );
  // Approvals: a read-only call runs at once, a destructive one waits for the user.
  mock.on({ toolResultContains: "Deleted note old" }, { content: "The old note is gone." });
  mock.on(
    { toolResultContains: "the user declined" },
    { content: "Understood, I left the note alone." },
  );
  mock.on(
    { toolResultContains: "nobody answered the approval request" },
    { content: "Nobody approved, so I left the note alone." },
  );

  // The questions that start each flow.
  mock.onMessage(/tidy my notes/, {
    toolCalls: [
      { id: "n1", name: "notes__list_notes", arguments: "{}" },
      { id: "n2", name: "notes__delete_note", arguments: '{"name":"old"}' },
    ],
  });
  mock.onMessage(/retry the broken echo/, {
    toolCalls: [{ id: "e2", name: "everything__echo", arguments: '{"wrong":1}' }],
  });
  mock.onMessage(/explain then look up/, {
    content: "Let me look that up first.",
    toolCalls: [{ id: "x1", name: "everything__echo", arguments: '{"message":"looked up"}' }],
  });
  mock.onMessage(/add a tool please/, {
    toolCalls: [{ id: "lc1", name: "changing__add_tool", arguments: "{}" }],
  });
  mock.onMessage(/use the new tool/, {
    toolCalls: [{ id: "lc2", name: "changing__new_tool", arguments: "{}" }],
  });
  mock.onMessage(/endless progress please/, {
    toolCalls: [
      {
        id: "ep1",
        name: "everything__trigger-long-running-operation",
        arguments: '{"duration":10,"steps":20}',
      },
    ],
  });
  mock.onMessage(/slow progress please/, {
    toolCalls: [
      {
        id: "sp1",
        name: "everything__trigger-long-running-operation",
        arguments: '{"duration":2,"steps":4}',
      },
    ],
  });
  mock.onMessage(/think in sequence/, {
    toolCalls: [{ id: "sq1", name: "sequential-thinking__echo", arguments: '{"message":"x"}' }],
  });
  mock.onMessage(/format badly once/, {
    toolCalls: [
      { id: "f1", name: "response_formatter", arguments: '{"conversation":"not an array"}' },
    ],
  });
  mock.onMessage(/format badly always/, {
    content: "Plain text after all.",
    toolCalls: [{ id: "f2", name: "response_formatter", arguments: '{"conversation":[]}' }],
  });
  mock.onMessage(/collide please/, {
    toolCalls: [{ id: "n1", name: "everything2__echo", arguments: '{"message":"to the second"}' }],
  });
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
  // A server's log lines during a call reach the timeline: logging is switched on, then a call
  // long enough for server-everything's five-second log interval to fire during it.
  mock.on(
    { toolResultContains: "Started simulated, random-leveled logging" },
    {
      toolCalls: [
        {
          id: "lg2",
          name: "everything__trigger-long-running-operation",
          arguments: '{"duration":7,"steps":7}',
        },
      ],
    },
  );
  mock.onMessage(/log lines while working/, {
    toolCalls: [{ id: "lg1", name: "everything__toggle-simulated-logging", arguments: "{}" }],
  });

  // Elicitation: server-everything asks the user during its call; the model reads the outcome.
  mock.on(
    { toolResultContains: "User provided the requested information" },
    { content: "Thanks, the server has your details." },
  );
  mock.on(
    { toolResultContains: "User declined to provide" },
    { content: "You declined to answer." },
  );
  mock.on(
    { toolResultContains: "User cancelled the elicitation dialog" },
    { content: "The question went unanswered." },
  );
  mock.on(
    { toolResultContains: "User completed the URL elicitation" },
    { content: "The page is done." },
  );
  mock.onMessage(/ask me for my details/, {
    toolCalls: [{ id: "el1", name: "everything__trigger-elicitation-request", arguments: "{}" }],
  });
  // The error path (-32042): the server refuses the call until a page of its own was opened.
  mock.onMessage(/first open the server's page/, {
    toolCalls: [
      {
        id: "ul2",
        name: "everything__trigger-url-elicitation",
        arguments: '{"url":"https://example.com/flow","errorPath":true}',
      },
    ],
  });
  mock.onMessage(/send me to a page/, {
    toolCalls: [
      {
        id: "ul1",
        name: "everything__trigger-url-elicitation",
        arguments: '{"url":"https://example.com/flow"}',
      },
    ],
  });
}
