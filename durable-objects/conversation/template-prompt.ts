// A templated conversation's part of each model request: the template's system prompt with its
// variables filled for this request, and its starting messages ahead of the conversation's own.
import type { Language } from "../loop/language";
import type { TemplateContext } from "../protocol/template-context";
import { fillVariables } from "../protocol/templates";
import type { NeutralMessage } from "../providers/types";

export interface TemplateVariables {
  model: string;
  provider: string;
  /** When the request is made; date and time are written in UTC. */
  now: Date;
  /** The language of the user's latest message, when it could be told. */
  language: Language | null;
}

/** Fills {{model}}, {{provider}}, {{date}}, {{time}} and {{lang}}; other braces stay as written. */
export function fillTemplateVariables(prompt: string, vars: TemplateVariables): string {
  const iso = vars.now.toISOString();
  return fillVariables(prompt, {
    model: vars.model,
    provider: vars.provider,
    date: iso.slice(0, 10),
    time: `${iso.slice(11, 16)} UTC`,
    lang: vars.language?.name ?? "the language of the user's messages",
  });
}

/** The system prompt's section for the template, or "" for a conversation without one. */
export function templateSystemSection(
  template: TemplateContext | undefined,
  vars: TemplateVariables,
): string {
  const prompt = template?.systemPrompt.trim();
  if (!prompt) return "";
  return `## Instructions for this conversation\n\n${fillTemplateVariables(prompt, vars)}\n\n`;
}

export function templateMessages(template: TemplateContext | undefined): NeutralMessage[] {
  return (template?.messages ?? []).map((m) => ({
    role: m.role,
    content: [{ type: "text", text: m.content }],
  }));
}
