// @vitest-environment jsdom
// The "This conversation" section's reasoning effort: a user picks how hard the model thinks; the
// saved settings pass the API's own schema, and going back to the model's default removes it.
import { describe, expect, it } from "vitest";
import { ConversationSettings, type ProviderInfo } from "../../../durable-objects/protocol/rest";
import { typeInto } from "../ui/type-into";
import { ConversationSection } from "./ConversationSection";
import { showSection, submitSection } from "./section-harness";

const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-haiku-4-5", models: [] },
];

let host: HTMLElement;
function show(settings: ConversationSettings) {
  const shown = showSection(ConversationSection, providers, settings, {
    model: "claude-sonnet-4-6",
  });
  host = shown.host;
  return shown;
}

const reasoning = () =>
  [...host.querySelectorAll("label")]
    .find((l) => l.textContent?.startsWith("Reasoning"))!
    .querySelector("select")!;
const submit = () => submitSection(host);

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

describe("a model that ignores the effort", () => {
  const openai: ProviderInfo[] = [
    { id: "openai", configured: true, defaultModel: "gpt-6-luna", models: ["gpt-6-luna"] },
  ];
  const field = (name: string) =>
    [...host.querySelectorAll("label")].find((l) => l.textContent?.startsWith(name));

  it("is offered none (gpt-4.1); a model that reasons is, with the effort kept", () => {
    host = showSection(
      ConversationSection,
      openai,
      { reasoningEffort: "high" },
      { provider: "openai", model: "gpt-4.1" },
    ).host;
    expect(field("Reasoning")).toBeUndefined();
    typeInto(field("Model")!.querySelector("input")!, "gpt-6-luna");
    expect(field("Reasoning")!.querySelector("select")!.value).toBe("high");
  });
});
