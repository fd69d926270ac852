// @vitest-environment jsdom
// After signing in from a turn's notice, the user can ask that turn's question again with one
// press, instead of typing it a second time.
import { act } from "react";
import { expect, it } from "vitest";
import { mountInPage } from "../test-page";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { MessageView } from "./MessageView";
import { questionBefore } from "./SignInNotice";

const question: TranscriptMessage = {
  id: "q1",
  order: 1,
  role: "user",
  status: "complete",
  content: [
    { type: "text", text: "What is open in the tracker?" },
    {
      type: "attachment",
      artifactId: "art-1",
      name: "notes.txt",
      contentType: "text/plain",
      size: 3,
      kind: "text",
    },
  ],
};

const answer: TranscriptMessage = {
  id: "a1",
  order: 2,
  role: "assistant",
  status: "complete",
  content: [{ type: "text", text: "Answered without the tracker." }],
  activity: {
    step: 1,
    maxSteps: 5,
    callSteps: {},
    progress: {},
    approvals: {},
    log: [
      {
        seq: 8,
        source: "notice",
        level: "warning",
        text: "The MCP server 'tracker' needs you to sign in. Press Connect.",
        action: { kind: "mcp_sign_in", serverId: "s1", serverName: "tracker" },
      },
    ],
  },
};

function show(onAskAgain?: (answerId: string) => void) {
  const { host, root } = mountInPage();
  act(() =>
    root.render(
      <MessageView
        message={answer}
        onOpenArtifact={() => undefined}
        {...(onAskAgain && { onAskAgain })}
      />,
    ),
  );
  return host;
}

/** The sign-in window reports that it finished, as the callback page does. */
function signInFinished(ok: boolean) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent("message", {
        origin: window.location.origin,
        data: { type: "mcp-oauth", ok, message: ok ? "Connected." : "Denied.", serverId: "s1" },
      }),
    );
  });
}

const button = (el: HTMLElement, name: string) =>
  [...el.querySelectorAll("button")].find((b) => b.textContent === name);

it("offers Ask again once connected, and asks the answer's question once", () => {
  const asked: string[] = [];
  const el = show((id) => asked.push(id));
  expect(button(el, "Ask again")).toBeUndefined();

  signInFinished(true);
  const notice = el.querySelector('[data-testid="sign-in-notice"]')!;
  expect(notice.textContent).toContain("Connected to tracker. Ask again");
  act(() => button(el, "Ask again")!.click());
  expect(asked).toEqual(["a1"]);
  expect(notice.textContent).toContain("asked again below");
  expect(button(el, "Ask again")).toBeUndefined();
});

it("offers nothing to send for someone who cannot send, nor after a failed sign-in", () => {
  const el = show();
  signInFinished(false);
  expect(button(el, "Ask again")).toBeUndefined();
  signInFinished(true);
  expect(button(el, "Ask again")).toBeUndefined();
  expect(el.textContent).toContain("Connected to tracker: your next message can use its tools.");
});

it("the question asked again is the text and files of the message the answer replied to", () => {
  const later: TranscriptMessage = { ...question, id: "q2", order: 3 };
  expect(questionBefore([question, answer, later], "a1")).toEqual({
    text: "What is open in the tracker?",
    attachments: ["art-1"],
  });
  expect(questionBefore([answer], "a1")).toBeNull();
});
