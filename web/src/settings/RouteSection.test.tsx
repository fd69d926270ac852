// @vitest-environment jsdom
// The route editor in the settings panel: fallbacks added, ordered and removed, local first and
// the timeout, saved as the conversation's settings; a route that cannot work says what to fix.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type {
  Conversation,
  ConversationSettings,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import { RouteSection } from "./RouteSection";
import type { ConversationPatch } from "./settings-api";
import { typeInto } from "../ui/type-into";

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

let root: Root | null = null;
let host: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
});

const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-haiku-4-5", models: [] },
  { id: "openai", configured: false, defaultModel: "gpt-4o-mini", models: [] },
  { id: "gemini", configured: false, defaultModel: "gemini-2.5-flash", models: [] },
  { id: "ollama", configured: true, defaultModel: "llama3.2:latest", models: ["qwen3:8b"] },
];

const conversationWith = (settings: ConversationSettings): Conversation => ({
  id: "c1",
  title: "t",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  mode: "normal",
  settings,
  createdAt: 0,
  updatedAt: 0,
});

/** Shows the section; saving applies the patch to the conversation as the server would. */
function show(settings: ConversationSettings = { maxSteps: 7 }) {
  const conversation = conversationWith(settings);
  const patches: ConversationPatch[] = [];
  const save = vi.fn((make: (c: Conversation) => ConversationPatch) => {
    const patch = make(conversation);
    patches.push(patch);
    return Promise.resolve({ ...conversation, ...patch } as Conversation);
  });
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  act(() =>
    root!.render(<RouteSection conversation={conversation} providers={providers} save={save} />),
  );
  return { patches, save };
}

const button = (name: string) => {
  const b = [...host.querySelectorAll("button")].find(
    (x) => x.textContent === name || x.getAttribute("aria-label") === name,
  );
  if (!b) throw new Error(`no button ${name}`);
  return b;
};
const field = (label: string) => {
  const el = host.querySelector(`[aria-label="${label}"]`);
  if (!el) throw new Error(`no field ${label}`);
  return el as HTMLInputElement | HTMLSelectElement;
};
const click = async (el: HTMLElement) => {
  await act(async () => {
    el.click();
    await Promise.resolve();
  });
};
const type = typeInto;
const submit = async () => {
  await act(async () => {
    host.querySelector("form")!.requestSubmit();
    await Promise.resolve();
  });
};
const message = () => host.querySelector('[role="alert"], [role="status"]')?.textContent;

describe("the route editor", () => {
  it("saves ordered fallbacks, local first and the timeout, keeping the other settings", async () => {
    const { patches } = show();
    expect(host.textContent).toContain("Primary: Anthropic (claude-haiku-4-5)");
    await click(button("Add fallback"));
    // The first configured provider other than the conversation's own is proposed.
    expect(field("Fallback 1 provider").value).toBe("ollama");
    expect(field("Fallback 1 model").value).toBe("llama3.2:latest");
    type(field("Fallback 1 model"), "qwen3:8b");
    await click(button("Add fallback"));
    type(field("Fallback 2 provider"), "openai");
    expect(field("Fallback 2 model").value).toBe("gpt-4o-mini");
    await click(button("Move fallback 2 up"));
    expect(field("Fallback 1 provider").value).toBe("openai");
    await click(host.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    type(host.querySelector<HTMLInputElement>('input[type="number"]')!, "20");
    await submit();
    expect(patches).toEqual([
      {
        settings: {
          maxSteps: 7,
          route: [
            { provider: "openai", model: "gpt-4o-mini" },
            { provider: "ollama", model: "qwen3:8b" },
          ],
          localFirst: true,
          routeTimeoutSeconds: 20,
        },
      },
    ]);
    expect(message()).toBe("Saved. Not configured here, so skipped: openai.");
  });

  it("starts from the saved route, and removing every fallback saves an empty one", async () => {
    const { patches } = show({ route: [{ provider: "ollama", model: "qwen3:8b" }] });
    expect(field("Fallback 1 model").value).toBe("qwen3:8b");
    await click(button("Remove fallback 1"));
    await submit();
    expect(patches[0]?.settings).toMatchObject({ route: [], localFirst: false });
  });

  it("says what to fix instead of saving a route that cannot work", async () => {
    const { save } = show();
    await click(host.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await submit();
    expect(message()).toBe(
      "Local first needs an Ollama model in the route: add one as a fallback.",
    );
    await click(button("Add fallback"));
    type(field("Fallback 1 model"), "");
    await submit();
    expect(message()).toBe("Fallback 1 needs a model.");
    type(field("Fallback 1 provider"), "anthropic");
    await submit();
    expect(message()).toBe("Fallback 1 (claude-haiku-4-5) is already in the route.");
    expect(save).not.toHaveBeenCalled();
  });
});
