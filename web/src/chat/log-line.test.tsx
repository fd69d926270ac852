import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { logLineText } from "./log-line";
import { MessageView } from "./MessageView";

describe("a server's log line", () => {
  it("shows a JSON line's message and how long it took, not the JSON", () => {
    expect(logLineText('{"message":"PubMed: HTTP 200 from eutils","ms":6}')).toBe(
      "PubMed: HTTP 200 from eutils (6 ms)",
    );
    expect(logLineText('{"msg":"cache hit","key":"abc","nested":{"a":1}}')).toBe(
      "cache hit (key: abc)",
    );
  });

  it("shows anything else as it came", () => {
    expect(logLineText("plain words")).toBe("plain words");
    expect(logLineText('{"level":"debug"}')).toBe('{"level":"debug"}');
    expect(logLineText("{not json")).toBe("{not json");
  });
});

it("reads so in an answer's Log", () => {
  const answer: TranscriptMessage = {
    id: "a1",
    order: 2,
    role: "assistant",
    status: "complete",
    content: [{ type: "text", text: "Found it." }],
    activity: {
      step: 1,
      maxSteps: 5,
      callSteps: {},
      progress: {},
      approvals: {},
      log: [
        {
          seq: 1,
          source: "mcp-remote",
          level: "info",
          text: '{"message":"PubMed: HTTP 200","ms":6}',
        },
      ],
    },
  };
  const html = renderToStaticMarkup(
    <MessageView message={answer} onOpenArtifact={() => undefined} />,
  );
  expect(html).toContain("[mcp-remote]</span> PubMed: HTTP 200 (6 ms)");
});
