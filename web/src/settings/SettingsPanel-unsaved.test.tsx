// @vitest-environment jsdom
// Closing Settings with changes not saved asks first instead of dropping them.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { type LeaveSettings, SettingsPanel } from "./SettingsPanel";

const conversation: Conversation = {
  id: "c1",
  title: "Trials",
  provider: "anthropic",
  model: "claude-x",
  mode: "normal",
  settings: {},
  createdAt: 0,
  updatedAt: 0,
};
const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-x", models: ["claude-x"] },
];

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  const proto = HTMLDialogElement.prototype as { showModal?: () => void; close?: () => void };
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  proto.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});

let root: Root;
let host: HTMLElement;
let closed: number;
/** What the app asks through when the user leaves Settings another way (another conversation). */
const guard: { current: LeaveSettings | null } = { current: null };
beforeEach(async () => {
  closed = 0;
  guard.current = null;
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ items: [], providers: [] })),
  );
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () =>
    root.render(
      <SettingsPanel
        conversation={conversation}
        providers={providers}
        onConversationChange={() => undefined}
        onClose={() => closed++}
        onSignOut={() => undefined}
        leaveGuard={guard}
      />,
    ),
  );
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
});

const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name)!;
const asking = () => host.querySelector("dialog[open]");

it("closes at once when nothing was changed", async () => {
  await act(async () => button("Close").click());
  expect(closed).toBe(1);
});

/** Sets the reasoning effort to high, not saved; answers the field. */
const changeReasoning = async () => {
  const reasoning = [...host.querySelectorAll("label")]
    .find((l) => l.textContent?.startsWith("Reasoning"))!
    .querySelector("select")!;
  await act(async () => {
    reasoning.value = "high";
    reasoning.dispatchEvent(new Event("change", { bubbles: true }));
  });
  return reasoning;
};

it("asks the same when the user leaves another way, and leaves only once confirmed", async () => {
  let left = 0;
  // Nothing changed: the way out goes at once.
  await act(async () => guard.current!(() => left++));
  expect(left).toBe(1);
  expect(asking()).toBeNull();

  await changeReasoning();
  await act(async () => guard.current!(() => left++));
  expect(left).toBe(1);
  expect(asking()!.textContent).toContain("Changes in This conversation are not saved.");
  await act(async () => button("Cancel").click());
  expect(left).toBe(1);

  await act(async () => guard.current!(() => left++));
  await act(async () => button("Close without saving").click());
  expect(left).toBe(2);
  // That way out is not the panel's own Close.
  expect(closed).toBe(0);
});

it("asks before dropping a change that was not saved, and stays open on Cancel", async () => {
  const reasoning = await changeReasoning();
  await act(async () => button("Close").click());
  expect(closed).toBe(0);
  expect(asking()!.textContent).toContain("Changes in This conversation are not saved.");

  await act(async () => button("Cancel").click());
  expect(asking()).toBeNull();
  expect(reasoning.value).toBe("high");
  expect(closed).toBe(0);

  // Escape asks too; confirming closes.
  await act(async () => {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
  });
  await act(async () => button("Close without saving").click());
  expect(closed).toBe(1);
});

it("a reload or a closed tab asks first while a change is not saved, and not otherwise", async () => {
  const unload = () => {
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };
  expect(unload()).toBe(false);
  await changeReasoning();
  expect(unload()).toBe(true);
  // Closed (without saving): nothing is left to lose.
  await act(async () => guard.current!(() => undefined));
  await act(async () => button("Close without saving").click());
  await act(async () => root.unmount());
  expect(unload()).toBe(false);
});

/** Changes the reasoning effort and saves it, the worker answering the save with `answer`. */
async function saveReasoning(answer: () => Response): Promise<HTMLFormElement> {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_path: string, init?: RequestInit) =>
      init?.method === "PATCH" ? answer() : Response.json({ items: [], providers: [] }),
    ),
  );
  await changeReasoning();
  const form = [...host.querySelectorAll("form")].find((f) =>
    f.textContent?.includes("Reasoning"),
  )!;
  await act(async () => form.requestSubmit());
  await act(async () => {});
  return form;
}

it("still asks after a save that failed: the form's values were not saved", async () => {
  const form = await saveReasoning(() =>
    Response.json({ error: { code: "internal", message: "Try again later." } }, { status: 500 }),
  );
  expect(form.querySelector('[role="alert"]')).not.toBeNull();
  await act(async () => button("Close").click());
  expect(closed).toBe(0);
  expect(asking()!.textContent).toContain("Changes in This conversation are not saved.");
});

it("closes at once after a save that succeeded", async () => {
  const form = await saveReasoning(() =>
    Response.json({ ...conversation, settings: { reasoningEffort: "high" } }),
  );
  expect(form.querySelector('[role="alert"]')).toBeNull();
  await act(async () => button("Close").click());
  expect(closed).toBe(1);
});

it("keeps Tab inside Settings, which covers the conversation", async () => {
  const panel = host.querySelector<HTMLElement>("[role=dialog]")!;
  expect(panel.getAttribute("aria-modal")).toBe("true");
  const close = button("Close");
  const last = button("Check providers");
  const tab = (from: HTMLElement, shiftKey = false) =>
    act(async () => {
      from.focus();
      from.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", shiftKey, bubbles: true }));
    });
  await tab(last);
  expect(document.activeElement).toBe(close);
  await tab(close, true);
  expect(document.activeElement).toBe(last);
});
