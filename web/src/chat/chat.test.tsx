import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  applyEvents,
  emptyTranscript,
  type TranscriptMessage,
} from "../../../durable-objects/protocol/transcript";
import type { NewServerEvent, ServerEvent } from "../../../durable-objects/protocol/wire";
import { describeError } from "./error-words";
import { blocksOf, MessageView } from "./MessageView";

const answer: TranscriptMessage = {
  id: "a1",
  order: 2,
  role: "assistant",
  status: "streaming",
  content: [
    { type: "text", text: "Let me look." },
    {
      type: "tool_call",
      callId: "c1",
      server: "pubmed",
      tool: "search",
      arguments: { query: "<img src=x onerror=alert(1)>" },
      status: "done",
      summary: "3 articles",
    },
    {
      type: "tool_call",
      callId: "c2",
      server: "charts",
      tool: "render",
      arguments: {},
      status: "started",
    },
    { type: "artifact", artifactId: "art1", artifactType: "text/markdown", title: "Notes" },
  ],
  activity: {
    step: 2,
    maxSteps: 5,
    callSteps: { c1: 1, c2: 1 },
    progress: { c2: { progress: 2, total: 4, message: "drawing" } },
    log: [{ seq: 9, source: "charts", level: "info", text: "<b>hi</b>" }],
    approvals: {},
  },
};

const render = (m: TranscriptMessage) =>
  renderToStaticMarkup(<MessageView message={m} onOpenArtifact={() => undefined} />);

describe("an answer in the chat", () => {
  it("groups consecutive tool calls of a step into one block", () => {
    expect(blocksOf(answer.content).map((b) => b.kind)).toEqual(["part", "calls", "part"]);
  });

  it("splits consecutive tool calls by their step", () => {
    const call = (callId: string) =>
      ({
        type: "tool_call",
        callId,
        server: "s",
        tool: "t",
        arguments: {},
        status: "done",
      }) as const;
    const blocks = blocksOf([call("a"), call("b"), call("c")], { a: 1, b: 2, c: 2 });
    expect(blocks.map((b) => (b.kind === "calls" ? b.calls.map((c) => c.callId) : []))).toEqual([
      ["a"],
      ["b", "c"],
    ]);
  });

  it("shows the step, each call with its server, status, arguments and result, and a progress bar", () => {
    const html = render(answer);
    expect(html).toContain("Step 2 of 5");
    expect(html).toContain("Step 1");
    expect(html.match(/data-testid="tool-call"/g)).toHaveLength(2);
    expect(html).toContain('data-status="started"');
    expect(html).toContain("3 articles");
    expect(html).toMatch(/<progress[^>]*value="2"[^>]*max="4"|<progress[^>]*max="4"[^>]*value="2"/);
    expect(html).toContain("drawing");
    expect(html).toContain("Log (1)");
  });

  it("reads a tool's JSON result as a sentence with the step's and the call's time; raw only inside", () => {
    const bibliography =
      '{"bibliography":[{"pmid":"31452104","title":"Olaparib in prostate cancer"},{"pmid":"29625052","tit…';
    const html = render({
      ...answer,
      content: [
        {
          type: "tool_call",
          callId: "b1",
          server: "mcp-remote",
          tool: "pubmed_fetch",
          arguments: { query: "olaparib ".repeat(40) },
          status: "done",
          summary: `${bibliography} (1 artifact)`,
        },
        {
          type: "tool_call",
          callId: "b2",
          server: "mcp-remote",
          tool: "pubmed_serch",
          arguments: {},
          status: "failed",
          summary: "unknown tool pubmed_serch",
        },
      ],
      activity: {
        ...answer.activity!,
        callSteps: { b1: 1, b2: 1 },
        callTimes: {
          b1: { startedAt: 1000, endedAt: 2400 },
          b2: { startedAt: 1000, endedAt: 1050 },
        },
      },
    });
    const summaries = [...html.matchAll(/<summary>(.*?)<\/summary>/g)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, ""),
    );
    expect(summaries[0]).toContain(
      "pubmed_fetch (done) — bibliography (1+): “Olaparib in prostate cancer”, … · 1 artifact · 1.4 s",
    );
    expect(summaries[0]).not.toContain("pmid");
    expect(summaries[1]).toBe("Arguments (3 lines)");
    expect(summaries[2]).toContain("Failed: unknown tool pubmed_serch. · 50 ms");
    expect(html).toContain("Step 1 · 1.4 s");
    // The raw result is still there for whoever expands the call.
    expect(html).toContain('Raw result</h4><pre class="tool-json">{&quot;bibliography&quot;');
  });

  it("shows tool arguments and log lines as text, never as markup", () => {
    const html = render(answer);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>hi");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("says in plain words why a finished answer is incomplete", () => {
    const failed: TranscriptMessage = {
      ...answer,
      status: "failed",
      activity: {
        ...answer.activity!,
        error: { code: "rate_limit", message: "Tried 3 times; try again in about 60 min." },
      },
    };
    const html = render(failed);
    expect(html).not.toContain("Step 2 of 5");
    // The server's own sentence says when: the headline does not say otherwise.
    expect(html).toContain(
      "The model provider is rate limiting us. Tried 3 times; try again in about 60 min.",
    );
    expect(html).not.toContain("in a moment");
    expect(render({ ...answer, status: "interrupted" })).toContain("was interrupted");
  });

  it("words an error it does not know without losing the server's message", () => {
    expect(describeError({ code: "weird", message: "The thing broke." })).toBe(
      "Something went wrong while answering. The thing broke.",
    );
  });
});

describe("an answer's artifact buttons", () => {
  // The events a tab receives (live, or replayed after a reload): an answer made an artifact,
  // which was then renamed in the pane (here or in another tab), and another one deleted.
  const events: NewServerEvent[] = [
    {
      type: "message_completed",
      messageId: "a1",
      status: "complete",
      content: [
        { type: "artifact", artifactId: "x1", artifactType: "text/markdown", title: "Draft" },
        { type: "artifact", artifactId: "x2", artifactType: "image/png", title: "Chart" },
      ],
    },
    {
      type: "artifact_changed",
      artifactId: "x1",
      change: "title",
      title: "Final plan",
      pinned: false,
      updatedAt: 2,
    },
    {
      type: "artifact_changed",
      artifactId: "x2",
      change: "deleted",
      title: "Chart",
      pinned: false,
      updatedAt: 1,
    },
  ];
  const started: NewServerEvent = {
    type: "turn_started",
    turnId: "t1",
    messageId: "a1",
    order: 2,
    userMessageId: "u1",
    provider: "anthropic",
    model: "m",
  };
  const transcript = applyEvents(
    emptyTranscript(),
    [started, ...events].map((e, i) => ({ ...e, seq: i + 1, at: 0 }) as ServerEvent),
  );
  const html = render(transcript.messages[0]!);

  it("read the artifact's title now", () => {
    expect(html).toMatch(/<button type="button" class="artifact-button"[^>]*>Final plan<\/button>/);
    expect(html).not.toContain("Draft");
  });

  it("say a deleted artifact is deleted, and do not open it", () => {
    expect(html).toMatch(
      /<button[^>]*data-deleted=""[^>]*disabled=""[^>]*>Chart <span[^>]*>\(deleted\)<\/span><\/button>/,
    );
  });
});
