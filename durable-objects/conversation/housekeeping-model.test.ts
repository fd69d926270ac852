// Titles (and summaries) for a conversation whose own provider has no key on this deployment: the
// route's first configured provider writes them with its cheap model. aimock's journal is the
// witness; this deployment has no Gemini key, and Anthropic is aimock.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import { TITLE_INSTRUCTION } from "./titles";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

/** The models aimock was asked for a title of a conversation whose question carries `marker`. */
async function titleModels(marker: string): Promise<string[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: { model?: string } }>;
  return entries
    .filter((e) => {
      const text = JSON.stringify(e.body ?? {});
      return text.includes(marker) && text.includes(TITLE_INSTRUCTION.slice(0, 40));
    })
    .map((e) => e.body?.model ?? "?");
}

async function askAndWaitForTitle(conversationId: string, text: string): Promise<ServerEvent[]> {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
  await ws.until(turnEnded, 30_000);
  await ws.until((frames) => frames.some((f) => f.type === "title_changed"), 30_000);
  ws.close();
  return ws.events();
}

const storedTitle = async (id: string) =>
  (await env.DB.prepare("SELECT title FROM conversations WHERE id = ?").bind(id).first())?.title;

describe("titles for a conversation that runs on its route", () => {
  it("are written by the route's first configured provider, with its cheap model", async () => {
    const marker = `ctx-title-routed-${crypto.randomUUID()}`;
    const conv = await createConversation(user, {
      provider: "gemini",
      model: "gemini-2.5-pro",
      settings: { route: [{ provider: "anthropic", model: "claude-sonnet-4-6" }] },
    });
    const events = await askAndWaitForTitle(conv.id, `${marker} quels sont les effets ?`);
    expect(fold(events).title).toBe("Effets secondaires de la metformine");
    expect(await storedTitle(conv.id)).toBe("Effets secondaires de la metformine");
    expect(await titleModels(marker)).toEqual(["claude-haiku-4-5"]);
  }, 60_000);

  it("use the conversation's own housekeeping model when it names one", async () => {
    const marker = `ctx-title-chosen-${crypto.randomUUID()}`;
    const conv = await createConversation(user, {
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      settings: { housekeepingModel: { provider: "anthropic", model: "claude-opus-4-1" } },
    });
    await askAndWaitForTitle(conv.id, `${marker} quels sont les effets ?`);
    expect(await titleModels(marker)).toEqual(["claude-opus-4-1"]);
  }, 60_000);
});
