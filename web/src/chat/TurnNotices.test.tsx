// What the server told the user during an answer is shown in the answer, not only in the folded
// Log: e.g. that the model was given an attachment's text instead of the file.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import type { Activity, TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { MessageView } from "./MessageView";

const TEXT_INSTEAD =
  "gpt-4o-mini does not read PDF files: it was given their extracted text. Pick a model that sees images or reads PDFs (Anthropic or Gemini) to send them as they are.";

const answerWith = (log: Activity["log"]): TranscriptMessage => ({
  id: "a1",
  order: 2,
  role: "assistant",
  status: "complete",
  content: [{ type: "text", text: "I read both files." }],
  activity: { step: 1, maxSteps: 5, callSteps: {}, progress: {}, log, approvals: {} },
});

const render = (m: TranscriptMessage) =>
  renderToStaticMarkup(<MessageView message={m} onOpenArtifact={() => undefined} />);

it("shows a notice of the turn in the answer, before the folded log", () => {
  const html = render(
    answerWith([
      { seq: 5, source: "pubmed", level: "info", text: "fetched 3 articles" },
      { seq: 6, source: "notice", level: "info", text: TEXT_INSTEAD },
    ]),
  );
  const notices = html.match(/<p role="note"[^>]*data-testid="turn-notice"[^>]*>([^<]*)<\/p>/g);
  expect(notices).toHaveLength(1);
  expect(notices![0]).toContain(TEXT_INSTEAD);
  expect(html.indexOf(TEXT_INSTEAD)).toBeLessThan(html.indexOf('<details class="tool-log"'));
  // A server's log line stays in the log only.
  expect(html.indexOf("fetched 3 articles")).toBeGreaterThan(
    html.indexOf('<details class="tool-log"'),
  );
  expect(html).toContain("Log (2)");
});

it("leaves notices with an action to their own card", () => {
  const html = render(
    answerWith([
      {
        seq: 8,
        source: "notice",
        level: "warning",
        text: "The MCP server 'tracker' needs you to sign in.",
        action: { kind: "mcp_sign_in", serverId: "s1", serverName: "tracker" },
      },
    ]),
  );
  expect(html).not.toContain('data-testid="turn-notice"');
  expect(html).toContain('data-testid="sign-in-notice"');
});
