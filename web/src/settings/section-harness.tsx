// Shows one section of the settings panel as the panel does, for a conversation with the given
// settings; saving applies the patch to the conversation as the server would, and keeps it. The
// section is unmounted after each test.
import { act, type ComponentType } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, vi } from "vitest";
import type {
  Conversation,
  ConversationSettings,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import type { ConversationPatch } from "./settings-api";
import type { SaveConversation } from "./use-conversation-saver";

interface SectionProps {
  conversation: Conversation;
  providers: ProviderInfo[];
  save: SaveConversation;
}

let mounted: { root: Root; host: HTMLElement } | null = null;
afterEach(() => {
  const shown = mounted;
  if (!shown) return;
  act(() => shown.root.unmount());
  shown.host.remove();
  mounted = null;
});

export function showSection(
  Section: ComponentType<SectionProps>,
  providers: ProviderInfo[],
  settings: ConversationSettings,
  conversation: Partial<Conversation> = {},
) {
  const shown: Conversation = {
    id: "c1",
    title: "t",
    provider: "anthropic",
    model: "claude-haiku-4-5",
    mode: "normal",
    settings,
    createdAt: 0,
    updatedAt: 0,
    ...conversation,
  };
  const patches: ConversationPatch[] = [];
  const save = vi.fn((make: (c: Conversation) => ConversationPatch) => {
    const patch = make(shown);
    patches.push(patch);
    return Promise.resolve({ ...shown, ...patch } as Conversation);
  });
  const host = document.createElement("div");
  document.body.appendChild(host);
  const root = createRoot(host);
  mounted = { root, host };
  act(() => root.render(<Section conversation={shown} providers={providers} save={save} />));
  return { host, patches, save };
}

/** Submits the section's form, as its Save button does. */
export async function submitSection(host: HTMLElement) {
  await act(async () => {
    host.querySelector("form")!.requestSubmit();
    await Promise.resolve();
  });
}
