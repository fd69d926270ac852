// @vitest-environment jsdom
// The "Titles and summaries" section: a user names the model that writes titles and summaries and
// when summaries start; the saved settings pass the API's own schema, and going back to automatic
// removes them so the server's defaults apply again.
import { describe, expect, it } from "vitest";
import { ConversationSettings, type ProviderInfo } from "../../../durable-objects/protocol/rest";
import { HousekeepingSection } from "./HousekeepingSection";
import { showSection, submitSection } from "./section-harness";
import { typeInto } from "../ui/type-into";

const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-haiku-4-5", models: [] },
  { id: "openai", configured: false, defaultModel: "gpt-4o-mini", models: ["gpt-4o-mini"] },
];

let host: HTMLElement;
function show(settings: ConversationSettings) {
  const shown = showSection(HousekeepingSection, providers, settings, {
    model: "claude-sonnet-4-6",
  });
  host = shown.host;
  return shown;
}

const field = (label: string) =>
  host.querySelector<HTMLInputElement & HTMLSelectElement>(`[aria-label="${label}"]`);
const type = typeInto;
const submit = () => submitSection(host);
const message = () => host.querySelector('[role="alert"], [role="status"]')?.textContent;

describe("titles and summaries settings", () => {
  it("saves a named model and a threshold the API accepts, keeping the other settings", async () => {
    const { patches } = show({ maxSteps: 7 });
    expect(field("Titles and summaries provider")!.value).toBe("");
    expect(field("Titles and summaries model")).toBeNull();
    type(field("Titles and summaries provider")!, "openai");
    expect(field("Titles and summaries model")!.value).toBe("gpt-4o-mini");
    type(field("Summary threshold")!, "40");
    await submit();
    const settings = patches[0]?.settings;
    expect(settings).toEqual({
      maxSteps: 7,
      housekeepingModel: { provider: "openai", model: "gpt-4o-mini" },
      summaryThresholdPercent: 40,
    });
    expect(ConversationSettings.safeParse(settings).success).toBe(true);
    expect(message()).toBe("Saved. openai is not configured here, so the automatic model is used.");
  });

  it("going back to automatic and clearing the threshold removes both settings", async () => {
    const { patches } = show({
      maxSteps: 3,
      housekeepingModel: { provider: "anthropic", model: "claude-haiku-4-5" },
      summaryThresholdPercent: 60,
    });
    expect(field("Titles and summaries model")!.value).toBe("claude-haiku-4-5");
    expect(field("Summary threshold")!.value).toBe("60");
    type(field("Titles and summaries provider")!, "");
    type(field("Summary threshold")!, "");
    await submit();
    expect(patches[0]?.settings).toEqual({ maxSteps: 3 });
    expect(message()).toBe("Saved.");
  });

  it("says what to fix instead of saving a threshold or model the API would refuse", async () => {
    const { save } = show({});
    type(field("Summary threshold")!, "95");
    await submit();
    expect(message()).toBe(
      "The summary threshold is a whole number from 5 to 90 (per cent of the context window).",
    );
    type(field("Summary threshold")!, "30");
    type(field("Titles and summaries provider")!, "anthropic");
    type(field("Titles and summaries model")!, "  ");
    await submit();
    expect(message()).toBe("Name the model that writes titles and summaries.");
    expect(save).not.toHaveBeenCalled();
  });
});
