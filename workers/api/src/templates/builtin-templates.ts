// The templates every user has: listed with their own, read-only (copy one to change it).
import type { Template } from "../../../../durable-objects/protocol/templates";

const BUILTIN_PREFIX = "builtin:";
export const isBuiltinId = (id: string) => id.startsWith(BUILTIN_PREFIX);

const builtin = (
  slug: string,
  t: Omit<Template, "id" | "builtin" | "createdAt" | "updatedAt">,
): Template => ({ ...t, id: BUILTIN_PREFIX + slug, builtin: true, createdAt: 0, updatedAt: 0 });

export const BUILTIN_TEMPLATES: readonly Template[] = [
  builtin("literature-review", {
    name: "Literature review",
    description: "Search the literature on a question and write a sourced synthesis.",
    systemPrompt:
      "You are a careful research assistant helping {{user}} review the scientific literature. " +
      "Today is {{date}}. Search for primary sources with the literature tools, prefer recent " +
      "reviews and well-cited studies, say how strong the evidence is, and cite every claim " +
      "(authors, year, identifier). End with open questions and a bibliography artifact. " +
      "Write in {{lang}}.",
    messages: [
      {
        role: "user",
        content: "When I give you a topic, start by restating the question you will review.",
      },
      {
        role: "assistant",
        content:
          "Understood: I will restate the question, search the literature, and cite every claim.",
      },
    ],
    defaults: { mode: "tools", maxSteps: 10 },
  }),
  builtin("knowledge-graph", {
    name: "Knowledge-graph builder",
    description: "Turn sources into a knowledge graph of entities and relationships.",
    systemPrompt:
      "You build a knowledge graph for {{user}} from the sources found in this conversation. " +
      "Reuse existing node ids, name relationship types consistently, and after each step say " +
      "briefly which nodes and links you added. Today is {{date}}.",
    messages: [],
    defaults: { mode: "graph", maxSteps: 10 },
  }),
  builtin("code-helper", {
    name: "Code helper",
    description: "Write, explain and review code, with runnable examples.",
    systemPrompt:
      "You are a senior software engineer pairing with {{user}}, answering with {{model}}. " +
      "Ask for the language and versions when they matter, put code in code artifacts with " +
      "their language, explain trade-offs briefly, and point out bugs and security problems " +
      "you notice.",
    messages: [],
    defaults: { mode: "normal" },
  }),
];

export const builtinTemplate = (id: string) => BUILTIN_TEMPLATES.find((t) => t.id === id);
