// @vitest-environment jsdom
// The "This conversation" section's reasoning effort: a user picks how hard the model thinks; the
// saved settings pass the API's own schema, and going back to the model's default removes it.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type Conversation,
  ConversationSettings,
  type ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import { ConversationSection } from "./ConversationSection";
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
  { id: "openai", configured: false, defaultModel: "gpt-4o-mini", models: ["gpt-4o-mini"] },
];

function show(settings: ConversationSettings) {
  const conversation: Conversation = {
    id: "c1",
    title: "t",
    provider: "anthropic",
    model: "claude-sonnet-4-6",
    mode: "normal",
    settings,
    createdAt: 0,
    updatedAt: 0,
  };
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
    root!.render(
      <ConversationSection conversation={conversation} providers={providers} save={save} />,
    ),
  );
  return { patches, save };
}

const reasoning = () =>
  [...host.querySelectorAll("label")]
    .find((l) => l.textContent?.startsWith("Reasoning"))!
    .querySelector("select")!;
const submit = async () => {
  await act(async () => {
    host.querySelector("form")!.requestSubmit();
    await Promise.resolve();
  });
};

describe("reasoning effort", () => {
  it("saves the effort picked, keeping the other settings, in a shape the API accepts", async () => {
    const { patches } = show({ maxSteps: 7, temperature: 0.5 });
    expect(reasoning().value).toBe("");
    typeInto(reasoning(), "high");
    await submit();
    const settings = patches[0]?.settings;
    expect(settings).toEqual({ maxSteps: 7, temperature: 0.5, reasoningEffort: "high" });
    expect(ConversationSettings.safeParse(settings).success).toBe(true);
  });

  it("going back to the model's default removes the setting", async () => {
    const { patches } = show({ maxSteps: 3, reasoningEffort: "low" });
    expect(reasoning().value).toBe("low");
    typeInto(reasoning(), "");
    await submit();
    expect(patches[0]?.settings).toEqual({ maxSteps: 3 });
  });
});
