// The template dialog's fields to the API's input: what is sent, what is refused and why.
import { describe, expect, it } from "vitest";
import type { Template } from "../../../durable-objects/protocol/templates";
import { formFromTemplate, inputFromForm } from "./template-form";

const builtin: Template = {
  id: "builtin:code-helper",
  name: "Code helper",
  description: "Write code.",
  systemPrompt: "Pair with {{user}}.",
  messages: [{ role: "user", content: "Use TypeScript." }],
  defaults: { mode: "normal", blockedServers: ["slow-server"] },
  builtin: true,
  createdAt: 0,
  updatedAt: 0,
};

describe("the template form", () => {
  it("copies a built-in under a new name, keeping its servers and tools", () => {
    const input = inputFromForm(formFromTemplate(builtin));
    expect(input).toEqual({
      name: "Code helper (copy)",
      description: "Write code.",
      systemPrompt: "Pair with {{user}}.",
      messages: [{ role: "user", content: "Use TypeScript." }],
      defaults: { mode: "normal", blockedServers: ["slow-server"] },
    });
  });

  it("drops empty starting messages and a model without a provider, and keeps the reasoning", () => {
    const form = {
      ...formFromTemplate(null),
      name: "Mine",
      model: "orphan-model",
      maxSteps: "4",
      reasoningEffort: "high" as const,
      messages: [
        { role: "user" as const, content: "  " },
        { role: "assistant" as const, content: "Ready." },
      ],
    };
    expect(inputFromForm(form)).toMatchObject({
      messages: [{ role: "assistant", content: "Ready." }],
      defaults: { maxSteps: 4, reasoningEffort: "high" },
    });
  });

  it("says what to fix: a missing name, a step limit out of range", () => {
    expect(inputFromForm(formFromTemplate(null))).toBe("Give the template a name.");
    expect(inputFromForm({ ...formFromTemplate(null), name: "x", maxSteps: "50" })).toMatch(
      /from 1 to 20/,
    );
  });
});
