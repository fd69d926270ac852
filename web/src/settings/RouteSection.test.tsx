// @vitest-environment jsdom
// The route editor in the settings panel: fallbacks added, ordered and removed, local first and
// the timeout, saved as the conversation's settings; a route that cannot work says what to fix.
import { act } from "react";
import { describe, expect, it } from "vitest";
import type { ConversationSettings, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { RouteSection } from "./RouteSection";
import { showSection, submitSection } from "./section-harness";
import { typeInto } from "../ui/type-into";

const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-haiku-4-5", models: [] },
  { id: "openai", configured: false, defaultModel: "gpt-4o-mini", models: [] },
  { id: "gemini", configured: false, defaultModel: "gemini-2.5-flash", models: [] },
  { id: "ollama", configured: true, defaultModel: "llama3.2:latest", models: ["qwen3:8b"] },
];

let host: HTMLElement;
function show(settings: ConversationSettings = { maxSteps: 7 }) {
  const shown = showSection(RouteSection, providers, settings);
  host = shown.host;
  return shown;
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
const submit = () => submitSection(host);
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
