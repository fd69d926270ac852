// @vitest-environment jsdom
// The conversation's cost meter follows the reader's role: usage is the owner's spending, so a
// viewer is neither shown it nor asks for it, and a participant made a viewer stops seeing it.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { ConversationRole } from "../../../durable-objects/protocol/roles";
import { EMPTY_USAGE } from "../../../durable-objects/protocol/usage";
import { UsageMeter } from "./UsageMeter";
import { useConversationUsage } from "./use-conversation-usage";

const TOTAL = { ...EMPTY_USAGE, calls: 2, inputTokens: 2500, outputTokens: 500, costUsd: 0.015 };
let asked: string[];
let root: Root;
let host: HTMLElement;

beforeEach(() => {
  asked = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      asked.push(path);
      return new Response(
        JSON.stringify({
          conversationId: "c1",
          total: TOTAL,
          messages: [],
          housekeeping: EMPTY_USAGE,
        }),
        {
          headers: { "content-type": "application/json" },
        },
      );
    }),
  );
  host = document.createElement("div");
  root = createRoot(host);
});
afterEach(async () => {
  await act(async () => root.unmount());
  vi.unstubAllGlobals();
});

function Meter(props: { role: ConversationRole }) {
  const usage = useConversationUsage("c1", false, props.role, undefined, true);
  return usage ? <UsageMeter usage={usage.total} label="This conversation" /> : null;
}

const show = async (role: ConversationRole) => {
  await act(async () => root.render(<Meter role={role} />));
  await act(() => new Promise((r) => setTimeout(r, 10)));
};
const meter = () => host.querySelector("[data-testid=usage-meter]")?.textContent ?? null;

it("shows a participant the conversation's cost, and hides it once they are made a viewer", async () => {
  await show("participant");
  expect(meter()).toContain("$0.0150");
  await show("viewer");
  expect(meter()).toBeNull();
});

it("never asks for a viewer's usage, which the API refuses", async () => {
  await show("viewer");
  expect(asked).toEqual([]);
  expect(meter()).toBeNull();
});
