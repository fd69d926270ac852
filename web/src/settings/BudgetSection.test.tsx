// @vitest-environment jsdom
// "Budgets per answer": a user sets the tokens, dollars and seconds one answer may spend; what is
// saved passes the API's own schema, the other settings stay, and emptying the fields removes
// the budgets so the deployment's defaults apply again.
import { describe, expect, it } from "vitest";
import { ConversationSettings } from "../../../durable-objects/protocol/rest";
import { BudgetSection } from "./BudgetSection";
import { showSection, submitSection } from "./section-harness";
import { typeInto } from "../ui/type-into";

let host: HTMLElement;
function show(settings: ConversationSettings) {
  const shown = showSection(BudgetSection, [], settings);
  host = shown.host;
  return shown;
}

const field = (label: string) =>
  [...host.querySelectorAll("label")]
    .find((l) => l.textContent?.startsWith(label))!
    .querySelector("input")!;
const submit = () => submitSection(host);
const message = () => host.querySelector('[role="alert"], [role="status"]')?.textContent;

describe("budgets per answer", () => {
  it("saves the budgets the user typed, keeping the other settings", async () => {
    const { patches } = show({ maxSteps: 4 });
    expect(field("Tokens").value).toBe("");
    typeInto(field("Tokens"), "20000");
    typeInto(field("Cost"), " 0.05 ");
    await submit();
    const settings = patches[0]?.settings;
    expect(settings).toEqual({ maxSteps: 4, budgets: { tokens: 20000, costUsd: 0.05 } });
    expect(ConversationSettings.safeParse(settings).success).toBe(true);
    expect(message()).toBe("Saved. The next answer keeps to these budgets.");
  });

  it("shows the saved budgets, and emptying them removes them", async () => {
    const { patches } = show({ budgets: { tokens: 5000, seconds: 60 } });
    expect(field("Tokens").value).toBe("5000");
    expect(field("Time").value).toBe("60");
    typeInto(field("Tokens"), "");
    typeInto(field("Time"), "");
    await submit();
    expect(patches[0]?.settings).toEqual({});
  });

  it("says what to fix instead of saving a budget the API would refuse", async () => {
    const { save } = show({});
    for (const [label, value, rule] of [
      ["Tokens", "1.5", "The token budget is a whole number of tokens, at least 1."],
      ["Tokens", "lots", "The token budget is a whole number of tokens, at least 1."],
      ["Cost", "0", "The cost budget is an amount in US dollars above 0, such as 0.05."],
      ["Time", "90000", "The time budget is a whole number of seconds, from 1 to 86,400 (a day)."],
    ] as const) {
      typeInto(field("Tokens"), "");
      typeInto(field(label), value);
      await submit();
      expect(message(), `${label} ${value}`).toBe(rule);
      typeInto(field(label), "");
    }
    expect(save).not.toHaveBeenCalled();
  });
});
