// @vitest-environment jsdom
// The top of a conversation made from a template: its starting messages, in order, open until
// the conversation has messages of its own.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TemplateContext } from "../../../durable-objects/protocol/template-context";
import { TemplateStart } from "./TemplateStart";

const template: TemplateContext = {
  templateId: "t-1",
  name: "Reviewer",
  systemPrompt: "Review {{lang}} text.",
  messages: [
    { role: "user", content: "Be terse.\nCite sources." },
    { role: "assistant", content: "Understood: **terse**, with sources." },
  ],
};

const shown = (open: boolean, t = template) => {
  const host = document.createElement("div");
  host.innerHTML = renderToStaticMarkup(<TemplateStart template={t} open={open} />);
  return host;
};

describe("a conversation made from a template", () => {
  it("shows the template's starting messages at its top, in order, with their roles", () => {
    const host = shown(true);
    const details = host.querySelector("details")!;
    expect(details.open).toBe(true);
    expect(details.querySelector("summary")!.textContent).toBe(
      "Started from the template “Reviewer”: 2 starting messages",
    );
    const messages = [...details.querySelectorAll("article")];
    expect(messages.map((m) => m.className)).toEqual(["message user", "message assistant"]);
    expect(messages[0]!.textContent).toBe("Be terse.\nCite sources.");
    // The system prompt is for the model: it is not one of the messages shown.
    expect(host.textContent).not.toContain("Review {{lang}} text.");
  });

  it("is folded once the conversation has its own messages, and absent without starting messages", () => {
    expect(shown(false).querySelector("details")!.open).toBe(false);
    expect(shown(true, { ...template, messages: [] }).innerHTML).toBe("");
  });
});
