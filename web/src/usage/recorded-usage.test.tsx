// @vitest-environment jsdom
// A title or summary call is no answer's, and costs the owner all the same: the conversation's
// meter counts it, and shows it as soon as its `usage_recorded` event arrives, without a reload.
import { act } from "react";
import type { ServerEvent } from "../../../durable-objects/protocol/wire";
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
  const usage = useConversationUsage("c1", false, "owner", props.transcript.usageRecordedSeq, true);
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

/** The meter as ChatView wires it: the socket's transcript, and whether it has caught up. */
function WiredMeter(props: { transcript: Transcript; caughtUp: boolean }) {
  const { transcript } = props;
  const usage = useConversationUsage(
    "c1",
    transcript.busy,
    "owner",
    transcript.usageRecordedSeq,
    props.caughtUp,
  );
  const total = conversationTotal(usagePerAnswer(usage, new Map()), usage);
  return total.calls > 0 ? <UsageMeter usage={total} label="This conversation" /> : null;
}

/** An answered turn, then its title's (or a summary's) usage recorded: three events from `seq`. */
function answeredTurn(seq: number, purpose: "title" | "summary"): ServerEvent[] {
  const turnId = `t${seq}`;
  return [
    {
      seq,
      at: 1,
      type: "turn_started",
      turnId,
      messageId: `a${seq}`,
      order: seq,
      userMessageId: `u${seq}`,
      provider: "anthropic",
      model: "claude-haiku-4-5",
    },
    { seq: seq + 1, at: 1, type: "turn_ended", turnId, status: "complete" },
    {
      seq: seq + 2,
      at: 1,
      type: "usage_recorded",
      purpose,
      provider: "anthropic",
      model: "claude-haiku-4-5",
      call: TITLE,
    },
  ];
}

it("reads the usage once after a page load's catch-up, not once per replayed usage_recorded", async () => {
  const asked = vi.mocked(fetch);
  const { root } = mountInPage();
  const settle = () => act(() => new Promise((r) => setTimeout(r, 10)));
  const show = async (transcript: Transcript, caughtUp: boolean) => {
    await act(async () => root.render(<WiredMeter transcript={transcript} caughtUp={caughtUp} />));
    await settle();
  };
  // The page opens; the replay arrives in a few batches (each shown as it folds in).
  let transcript = emptyTranscript();
  await show(transcript, false);
  for (const [seq, purpose] of [
    [1, "title"],
    [4, "summary"],
    [7, "summary"],
  ] as const) {
    transcript = applyEvents(transcript, answeredTurn(seq, purpose));
    await show(transcript, false);
  }
  expect(asked).not.toHaveBeenCalled();
  // `synced`: everything replayed is in the transcript; one read sees all it recorded.
  await show(transcript, true);
  expect(asked).toHaveBeenCalledTimes(1);

  // A title or summary recorded live is read at once.
  transcript = applyEvents(transcript, answeredTurn(10, "summary"));
  await show(transcript, true);
  expect(asked).toHaveBeenCalledTimes(2);
});

it("reads a page's usage once caught up even when a turn is running, and again when it ends", async () => {
  const asked = vi.mocked(fetch);
  const { host, root } = mountInPage();
  const meter = () => host.querySelector("[data-testid=usage-meter]")?.textContent ?? "";
  const show = async (transcript: Transcript, caughtUp: boolean) => {
    await act(async () => root.render(<WiredMeter transcript={transcript} caughtUp={caughtUp} />));
    await act(() => new Promise((r) => setTimeout(r, 10)));
  };
  const [started, ended] = answeredTurn(1, "title");
  let transcript = applyEvents(emptyTranscript(), [started!]);
  await show(transcript, false);
  await show(transcript, true);
  // The answers before the running one have their stored figures.
  expect(asked).toHaveBeenCalledTimes(1);
  expect(meter()).toContain("400 in · 50 out tokens");
  transcript = applyEvents(transcript, [ended!]);
  await show(transcript, true);
  expect(asked).toHaveBeenCalledTimes(2);
});
