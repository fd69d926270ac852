// @vitest-environment jsdom
// A title or summary call is no answer's, and costs the owner all the same: the conversation's
// meter counts it, and shows it as soon as its `usage_recorded` event arrives, without a reload.
import { act } from "react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import {
  applyEvents,
  emptyTranscript,
  type Transcript,
} from "../../../durable-objects/protocol/transcript";
import { type ConversationUsage, EMPTY_USAGE } from "../../../durable-objects/protocol/usage";
import { mountInPage } from "../test-page";
import { conversationTotal, usagePerAnswer } from "./merge-usage";
import { UsageMeter } from "./UsageMeter";
import { useConversationUsage } from "./use-conversation-usage";

const ANSWER = { ...EMPTY_USAGE, calls: 1, inputTokens: 400, outputTokens: 50, costUsd: 0.002 };
const TITLE = { ...EMPTY_USAGE, calls: 1, inputTokens: 120, outputTokens: 8, costUsd: 0.0001 };

/** What D1 holds now: the answer, then (once the title call is recorded) the title too. */
let stored: ConversationUsage;

beforeEach(() => {
  stored = {
    conversationId: "c1",
    total: ANSWER,
    messages: [{ messageId: "a1", ...ANSWER }],
    housekeeping: EMPTY_USAGE,
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify(stored), { headers: { "content-type": "application/json" } }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

/** The conversation's meter as the chat shows it under the messages. */
function ConversationMeter(props: { transcript: Transcript }) {
  const usage = useConversationUsage("c1", false, "owner", props.transcript.usageRecordedSeq);
  const total = conversationTotal(usagePerAnswer(usage, new Map()), usage);
  return total.calls > 0 ? <UsageMeter usage={total} label="This conversation" /> : null;
}

it("shows a title call's tokens and cost in the conversation's meter once it is recorded", async () => {
  const { host, root } = mountInPage();
  const meter = () => host.querySelector("[data-testid=usage-meter]")?.textContent ?? "";
  const settle = () => act(() => new Promise((r) => setTimeout(r, 10)));
  let transcript = emptyTranscript();
  await act(async () => root.render(<ConversationMeter transcript={transcript} />));
  await settle();
  expect(meter()).toContain("400 in · 50 out tokens · $0.0020");

  // The title's row reaches D1, then its event reaches the page.
  stored = {
    ...stored,
    total: { ...ANSWER, calls: 2, inputTokens: 520, outputTokens: 58, costUsd: 0.0021 },
    housekeeping: TITLE,
  };
  transcript = applyEvents(transcript, [
    {
      seq: 7,
      at: 1,
      type: "usage_recorded",
      purpose: "title",
      provider: "anthropic",
      model: "claude-haiku-4-5",
      call: TITLE,
    },
  ]);
  await act(async () => root.render(<ConversationMeter transcript={transcript} />));
  await settle();
  expect(meter()).toContain("520 in · 58 out tokens · $0.0021");
});
