// A conversation started from a template: its first model request carries the template's system
// prompt with the variables filled and its starting messages. aimock's journal is the witness.
import { describe, expect, inject, it } from "vitest";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import { fillTemplateVariables } from "./template-prompt";
import { detectLanguage } from "../loop/language";

// aimock's journal holds requests in its own shape: the system prompt is the "system" message.
interface JournalRequest {
  messages?: Array<{ role: string; content: unknown }>;
}

const systemOf = (request: JournalRequest) =>
  JSON.stringify(request.messages?.find((m) => m.role === "system")?.content ?? "");
const conversationOf = (request: JournalRequest) =>
  (request.messages ?? []).filter((m) => m.role !== "system");

/** The model requests whose messages mention `marker`, oldest first. */
async function requestsWith(marker: string): Promise<JournalRequest[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: JournalRequest }>;
  return entries.flatMap((e) =>
    e.body && JSON.stringify(e.body.messages ?? []).includes(marker) ? [e.body] : [],
  );
}

async function sendAndWait(user: Awaited<ReturnType<typeof createUser>>, id: string, text: string) {
  const ws = await TestSocket.open(user, id);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((frames) => frames.some((f) => f.type === "synced"));
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(turnEnded, 30_000);
  ws.close();
}

const textOf = (content: unknown) => JSON.stringify(content);

describe("a conversation started from a template", () => {
  it("sends the filled system prompt and the starting messages before the first question", async () => {
    const user = await createUser("Ada Lovelace");
    const created = await api(user, "/api/templates", {
      method: "POST",
      json: {
        name: "Marked",
        systemPrompt:
          // Spaces inside the braces are allowed, for {{user}} (filled by the API worker) too.
          "Helping {{ user }} with {{model}} from {{provider}} on {{date}} at {{time}}, in {{lang}}. " +
          "Keep {{unknown}} as written.",
        messages: [
          { role: "user", content: "Starting context: answer in bullet points." },
          { role: "assistant", content: "Noted, bullet points it is." },
        ],
        defaults: { provider: "anthropic", model: "claude-template-test", maxSteps: 1 },
      },
    });
    expect(created.status).toBe(201);
    const { id: templateId, warnings } = (await created.json()) as {
      id: string;
      warnings?: string[];
    };
    // The author hears that {{unknown}} is not a variable: meant, or a typo.
    expect(warnings).toEqual([
      "{{unknown}} is not a variable, so the model gets it as written. The variables are {{model}}, {{provider}}, {{date}}, {{time}}, {{lang}}, {{user}}.",
    ]);
    const conversation = await createConversation(user, { templateId });
    expect(conversation.model).toBe("claude-template-test");

    const marker = `template-marker-${crypto.randomUUID()}`;
    const day = new Date().toISOString().slice(0, 10);
    await sendAndWait(
      user,
      conversation.id,
      `What do you know about the history of computing machines? ${marker}`,
    );

    const [first] = await requestsWith(marker);
    expect(first).toBeDefined();
    const system = systemOf(first!);
    expect(system).toContain(
      `Helping Ada Lovelace with claude-template-test from anthropic on ${day} at `,
    );
    expect(system).toMatch(/at \d\d:\d\d UTC, in English\./);
    expect(system).toContain("Keep {{unknown}} as written.");
    const messages = conversationOf(first!);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(textOf(messages[0]!.content)).toContain("Starting context: answer in bullet points.");
    expect(textOf(messages[1]!.content)).toContain("Noted, bullet points it is.");
    expect(textOf(messages[2]!.content)).toContain(marker);
  });

  it("leaves a conversation without a template as it was", async () => {
    const user = await createUser();
    const conversation = await createConversation(user);
    const marker = `plain-marker-${crypto.randomUUID()}`;
    await sendAndWait(user, conversation.id, `Hello there ${marker}`);
    const [first] = await requestsWith(marker);
    expect(systemOf(first!)).toContain("## Language");
    expect(systemOf(first!)).not.toContain("Instructions for this conversation");
    expect(conversationOf(first!)).toHaveLength(1);
  });
});

describe("fillTemplateVariables", () => {
  it("writes the date and time in UTC and the language of the latest message", async () => {
    const filled = fillTemplateVariables("{{date}} {{ time }} {{lang}} {{provider}}/{{model}}", {
      model: "m",
      provider: "p",
      now: new Date("2026-03-04T05:06:07Z"),
      language: await detectLanguage(
        "Bonjour, pouvez-vous m'expliquer comment fonctionne la photosynthèse ?",
      ),
    });
    expect(filled).toBe("2026-03-04 05:06 UTC French p/m");
  });
});
