// @vitest-environment jsdom
// The versions switcher (‹ 2/3 ›) and the Edit / Regenerate / Branch here actions of a message.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { MessageAlternatives } from "../../../durable-objects/protocol/branches";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import type { BranchAction } from "./MessageActions";
import { MessageView } from "./MessageView";

let root: Root;
let host: HTMLElement;

const question: TranscriptMessage = {
  id: "u1",
  order: 1,
  role: "user",
  status: "complete",
  content: [{ type: "text", text: "What is a tide?" }],
};
const answer: TranscriptMessage = {
  id: "a1",
  order: 2,
  role: "assistant",
  status: "complete",
  content: [
    {
      type: "tool_call",
      callId: "c1",
      server: "library",
      tool: "lookup",
      arguments: { topic: "tides" },
      status: "done",
      summary: "Found: tides facts",
    },
    { type: "text", text: "The sea rises and falls." },
  ],
  activity: { step: 2, maxSteps: 5, callSteps: { c1: 1 }, progress: {}, log: [], approvals: {} },
};
const versions: MessageAlternatives = {
  seq: 2,
  conversations: [
    { id: "conv-a", title: "Tides" },
    { id: "conv-b", title: "Tides" },
    { id: "conv-c", title: "Tides" },
  ],
  current: 1,
};

function show(
  message: TranscriptMessage,
  props: {
    versions?: MessageAlternatives;
    onOpenConversation?: (id: string) => void;
    onBranch?: (action: BranchAction) => Promise<void>;
    providers?: ProviderInfo[];
  },
) {
  ({ host, root } = mountInPage());
  act(() =>
    root.render(
      <MessageView
        message={message}
        onOpenArtifact={() => undefined}
        onOpenConversation={props.onOpenConversation ?? (() => undefined)}
        {...(props.versions && { versions: props.versions })}
        {...(props.onBranch && { onBranch: props.onBranch })}
        providers={props.providers}
      />,
    ),
  );
}

const button = (name: string) =>
  [...host.querySelectorAll("button")].find(
    (b) => b.textContent === name || b.getAttribute("aria-label") === name,
  )!;
const click = (name: string) => act(() => button(name).click());

describe("the versions of a message", () => {
  it("shows which of three versions this is and opens the one before or after it", () => {
    const opened: string[] = [];
    show(answer, { versions, onOpenConversation: (id) => opened.push(id) });
    expect(host.querySelector('[data-testid="version-position"]')!.textContent).toBe("2/3");
    click("Next version");
    click("Previous version");
    expect(opened).toEqual(["conv-c", "conv-a"]);
  });

  it("cannot go before the first version nor past the last", () => {
    show(answer, { versions: { ...versions, current: 0 } });
    expect(host.querySelector('[data-testid="version-position"]')!.textContent).toBe("1/3");
    expect(button("Previous version").disabled).toBe(true);
    expect(button("Next version").disabled).toBe(false);
    act(() => root.unmount());
    host.remove();
    show(answer, { versions: { ...versions, current: 2 } });
    expect(button("Next version").disabled).toBe(true);
  });

  it("shows no switcher for a message with one version", () => {
    show(answer, {});
    expect(host.querySelector('[data-testid="version-position"]')).toBeNull();
  });
});

describe("edit, regenerate and branch", () => {
  it("edits a question in place and sends the new text as a branch", async () => {
    const onBranch = vi.fn(async (_action: BranchAction) => undefined);
    show(question, { onBranch });
    click("Edit");
    const box = host.querySelector<HTMLTextAreaElement>('textarea[aria-label="Edited message"]')!;
    expect(box.value).toBe("What is a tide?");
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(
        box,
        "What causes tides?",
      );
      box.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => button("Send edit").click());
    expect(onBranch).toHaveBeenCalledWith({ messageId: "u1", text: "What causes tides?" });
    expect(host.querySelector("textarea")).toBeNull();
  });

  it("regenerates an answer, branches after it or after one of its tool steps", async () => {
    const onBranch = vi.fn(async (_action: BranchAction) => undefined);
    show(answer, { onBranch });
    await act(async () => button("Regenerate").click());
    await act(async () => button("Branch here").click());
    await act(async () => button("Branch after step 1").click());
    expect(onBranch.mock.calls.map(([a]) => a)).toEqual([
      { messageId: "a1", step: 0 },
      { messageId: "a1" },
      { messageId: "a1", step: 1 },
    ]);
  });

  it("regenerates with another provider and model", async () => {
    const onBranch = vi.fn(async (_action: BranchAction) => undefined);
    show(answer, {
      onBranch,
      providers: [
        { id: "anthropic", configured: true, defaultModel: "claude-haiku-4-5", models: [] },
        { id: "openai", configured: true, defaultModel: "gpt-4o-mini", models: ["gpt-4o"] },
      ],
    });
    click("Regenerate with…");
    const select = [...host.querySelectorAll("select")].find(
      (s) => s.getAttribute("aria-label") === "Provider",
    )!;
    expect(select.value).toBe("anthropic");
    act(() => {
      select.value = "openai";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await act(async () => button("Regenerate with gpt-4o-mini").click());
    expect(onBranch).toHaveBeenCalledWith({
      messageId: "a1",
      step: 0,
      provider: "openai",
      model: "gpt-4o-mini",
    });
  });

  it("closes the Regenerate with… picker and the edit box with Escape, focus back on their button", () => {
    show(answer, {
      onBranch: async () => undefined,
      providers: [{ id: "anthropic", configured: true, defaultModel: "claude", models: [] }],
    });
    const escape = () =>
      act(() => {
        document.activeElement!.dispatchEvent(
          new KeyboardEvent("keydown", { key: "Escape", bubbles: true }),
        );
      });
    click("Regenerate with…");
    (host.querySelector('select[aria-label="Provider"]') as HTMLElement).focus();
    escape();
    expect(host.querySelector('form[aria-label="Regenerate with another model"]')).toBeNull();
    expect(document.activeElement).toBe(button("Regenerate with…"));

    act(() => root.unmount());
    show(question, { onBranch: async () => undefined });
    click("Edit");
    host.querySelector("textarea")!.focus();
    escape();
    expect(host.querySelector("textarea")).toBeNull();
    expect(document.activeElement).toBe(button("Edit"));
  });

  it("says why when the branch could not be made", async () => {
    show(answer, { onBranch: () => Promise.reject(new Error("Daily allowance used up.")) });
    await act(async () => button("Regenerate").click());
    expect(host.querySelector('[role="alert"]')!.textContent).toBe("Daily allowance used up.");
  });

  it("offers nothing while the answer is still streaming", () => {
    show({ ...answer, status: "streaming" }, { onBranch: async () => undefined });
    expect(host.textContent).not.toContain("Regenerate");
    expect(host.textContent).not.toContain("Branch after step");
  });
});
