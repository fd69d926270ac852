// The history a model call carries: earlier tool calls and results, the model's window, and a
// request the provider refuses for its length. aimock's journal is the witness.
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  createConversation,
  createUserWithEverything,
  type TestUser,
} from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ChatMessage } from "../protocol/messages";
import type { ServerEvent, ServerFrame } from "../protocol/wire";
import type { Conversation } from "./conversation";

let user: TestUser;
beforeAll(async () => {
  user = await createUserWithEverything();
});

interface SentRequest {
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown }>;
  raw: string;
}

/** The requests aimock received whose last user message contains `marker`. */
async function sentWith(marker: string): Promise<SentRequest[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: { messages?: SentRequest["messages"] } }>;
  return entries.flatMap((e) => {
    const messages = e.body?.messages ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    return JSON.stringify(lastUser?.content ?? "").includes(marker)
      ? [{ messages, raw: JSON.stringify(e.body) }]
      : [];
  });
}

async function send(conversationId: string, text: string): Promise<ServerEvent[]> {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((frames) => frames.some((f) => f.type === "synced"));
  const clientMessageId = crypto.randomUUID();
  ws.send({ type: "send", clientMessageId, text });
  // The end of this message's turn, not of an earlier one replayed on resume.
  const ended = (frames: ServerFrame[]) => {
    const at = frames.findIndex(
      (f) => f.type === "user_message" && f.message.clientMessageId === clientMessageId,
    );
    return at >= 0 && turnEnded(frames.slice(at));
  };
  await ws.until(ended, 30_000);
  ws.close();
  return ws.events();
}

/** Stores `count` alternating user/assistant messages, as earlier turns would have. */
async function seedHistory(conversationId: string, count: number, text: (i: number) => string) {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));
  await runInDurableObject(stub, (instance: Conversation) => {
    for (let i = 1; i <= count; i++) {
      const message: ChatMessage = {
        id: crypto.randomUUID(),
        role: i % 2 === 1 ? "user" : "assistant",
        content: [{ type: "text", text: text(i) }],
        status: "complete",
        seq: i,
        clientMessageId: null,
        createdAt: Date.now(),
      };
      instance.store.putMessage(message);
    }
  });
}

describe("the history sent to the model", () => {
  it("a follow-up question carries the earlier turn's tool call and its result", async () => {
    const conv = await createConversation(user);
    const first = await send(conv.id, "ctx-followup-first: look it up");
    expect(fold(first).messages[1]?.content.some((p) => p.type === "tool_call")).toBe(true);
    await send(conv.id, "ctx-followup-second: what did the tool find?");

    const [request] = await sentWith("ctx-followup-second");
    expect(request).toBeDefined();
    const roles = request!.messages.filter((m) => m.role !== "system").map((m) => m.role);
    // The first question, the call, its result, the answer, then the new question.
    expect(roles).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    const call = request!.messages[roles.indexOf("assistant") + 1];
    expect(JSON.stringify(call?.tool_calls)).toContain("everything__echo");
    expect(JSON.stringify(call?.tool_calls)).toContain("spleen finding 42");
    const result = request!.messages.find((m) => m.role === "tool");
    expect(JSON.stringify(result?.content)).toContain("Echo: spleen finding 42");
  }, 60_000);

  it("a 1,000-message conversation sends a request within the model's window, the newest turn whole", async () => {
    // Small enough that the request stays under the 64 KB aimock keeps of a body in its journal.
    const window = 12_000;
    const conv = await createConversation(user, {
      settings: { contextWindow: window, maxTokens: 2_000 },
    });
    const filler = "lorem ipsum dolor sit amet ".repeat(15);
    await seedHistory(conv.id, 1_000, (i) => `ctx-seeded message ${i}: ${filler}`);
    const question = `ctx-thousand newest question: ${"why is the sky blue? ".repeat(200)}`;
    await send(conv.id, question);

    const [request] = await sentWith("ctx-thousand");
    expect(request).toBeDefined();
    // Within the window at a conservative four characters per token, the answer's reserve kept free.
    expect(request!.raw.length / 4).toBeLessThan(window - 2_000);
    const last = request!.messages.at(-1);
    expect(last?.role).toBe("user");
    expect(JSON.stringify(last?.content)).toContain(JSON.stringify(question).slice(1, -1));
    // The newest earlier turns are there, the oldest are not, and the model is told.
    expect(request!.raw).toContain("ctx-seeded message 1000:");
    expect(request!.raw).toContain("ctx-seeded message 999:");
    expect(request!.raw).not.toContain("ctx-seeded message 1:");
    expect(request!.raw).toMatch(/\d+ earlier messages of this conversation are not included/);
    expect(request!.messages.length).toBeLessThan(1_000);
  }, 60_000);

  it("a reasoning effort keeps room in the window for the reasoning: fewer old messages are sent", async () => {
    const sent = async (settings: Record<string, unknown>, marker: string) => {
      const conv = await createConversation(user, {
        settings: { contextWindow: 12_000, maxTokens: 2_000, ...settings },
      });
      const filler = "lorem ipsum dolor sit amet ".repeat(15);
      await seedHistory(conv.id, 200, (i) => `ctx-seeded message ${i}: ${filler}`);
      await send(conv.id, `${marker}: one more question`);
      const [request] = await sentWith(marker);
      return request!.messages.length;
    };
    const plain = await sent({}, "ctx-effort-none");
    const thinking = await sent({ reasoningEffort: "low" }, "ctx-effort-low");
    expect(thinking).toBeLessThan(plain);
  }, 60_000);

  it("a request refused for its length is sent again shorter, once, and the user is told", async () => {
    const conv = await createConversation(user);
    await seedHistory(conv.id, 20, (i) => `ctx-length turn ${i}`);
    const events = await send(conv.id, "ctx-too-long: one more question");

    const requests = await sentWith("ctx-too-long");
    expect(requests).toHaveLength(2);
    expect(requests[1]!.messages.length).toBeLessThan(requests[0]!.messages.length);
    const notice = events.find((e) => e.type === "notice" && /too long/.test(e.message));
    expect(notice).toMatchObject({ level: "warning" });
    const answer = fold(events).messages.at(-1);
    expect(answer?.status).toBe("complete");
    expect(answer?.content).toContainEqual({ type: "text", text: "Short enough now." });
  }, 60_000);
});

describe("language parity", () => {
  it("a French message gets the French instruction in the system prompt", async () => {
    const conv = await createConversation(user);
    await send(conv.id, "ctx-langue : quels sont les effets secondaires de la metformine ?");
    const [request] = await sentWith("ctx-langue");
    const system = request!.messages.find((m) => m.role === "system");
    expect(JSON.stringify(system?.content)).toContain("The user's latest message is in French");
    expect(JSON.stringify(system?.content)).toContain("Réponds en français.");
  });
});

describe("automatic titles", () => {
  const titleRequests = async (marker: string) =>
    (await sentWith(marker)).filter((r) =>
      JSON.stringify(r.messages[0]?.content).includes("Name this conversation"),
    );
  const storedTitle = async (id: string) =>
    (await env.DB.prepare("SELECT title FROM conversations WHERE id = ?").bind(id).first())?.title;

  it("after the first answer the cheap model names the conversation, live in every open tab, once", async () => {
    const conv = await createConversation(user, { model: "claude-sonnet-4-6" });
    const otherTab = await TestSocket.open(user, conv.id);
    otherTab.send({ type: "resume", lastSeq: 0 });
    const marker = `ctx-title-${crypto.randomUUID()}`;
    const events = await send(conv.id, `${marker} quels sont les effets de la metformine ?`);
    const renamed = (frames: ServerFrame[]) => frames.some((f) => f.type === "title_changed");
    await otherTab.until(renamed, 30_000);
    otherTab.close();
    expect(fold(otherTab.events()).title).toBe("Effets secondaires de la metformine");
    expect(await storedTitle(conv.id)).toBe("Effets secondaires de la metformine");

    const [request, ...more] = await titleRequests(marker);
    expect(request).toBeDefined();
    expect(request!.raw).toContain('"model":"claude-haiku-4-5"');
    expect(events.some((e) => e.type === "turn_ended")).toBe(true);
    // A second answer does not rename the conversation.
    await send(conv.id, `${marker} et la dose ?`);
    expect(more).toHaveLength(0);
    expect(await titleRequests(marker)).toHaveLength(1);
  }, 60_000);

  it("a title the user set is never overwritten", async () => {
    const conv = await createConversation(user);
    const patched = await api(user, `/api/conversations/${conv.id}`, {
      method: "PATCH",
      json: { title: "My metformin notes" },
    });
    expect(patched.status).toBe(200);
    const marker = `ctx-title-${crypto.randomUUID()}`;
    const events = await send(conv.id, `${marker} quels sont les effets de la metformine ?`);
    // The model was asked; its title was not written over the user's.
    for (let i = 0; i < 100 && (await titleRequests(marker)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await titleRequests(marker)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await storedTitle(conv.id)).toBe("My metformin notes");
    const later = await send(conv.id, `${marker} encore`);
    expect([...events, ...later].some((e) => e.type === "title_changed")).toBe(false);
  }, 60_000);
});

describe("rolling summary", () => {
  const summaryRequests = async (marker: string) =>
    (await sentWith(marker)).filter((r) =>
      JSON.stringify(r.messages[0]?.content).includes("running summary of a conversation"),
    );

  it("passes the threshold once: the summary is written, sent instead of the old messages, and not redone for a small addition", async () => {
    // A 4,000-token window: the older part is summarised past 1,000 tokens.
    const conv = await createConversation(user, { settings: { contextWindow: 4_000 } });
    const marker = `ctx-summary-${crypto.randomUUID()}`;
    await seedHistory(conv.id, 30, (i) => `${marker} old message ${i}: ${"detail ".repeat(40)}`);
    const first = await send(conv.id, `${marker} first question`);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((f) => f.some((x) => x.type === "summary_updated"), 30_000);
    ws.close();
    expect(fold(ws.events()).summary?.text).toContain("the dose is 500 mg");
    expect(first.some((e) => e.type === "turn_ended")).toBe(true);
    const [request] = await summaryRequests(marker);
    expect(request!.raw).toContain("(none yet)");
    expect(request!.raw).toContain("old message 1:");

    await send(conv.id, `${marker} second question`);
    const second = (await sentWith(`${marker} second question`)).find(
      (r) => !JSON.stringify(r.messages[0]?.content).includes("running summary"),
    );
    expect(second!.raw).toContain("Earlier in this conversation");
    expect(second!.raw).toContain("the dose is 500 mg");
    expect(second!.raw).not.toContain("old message 1:");
    // Two new messages stay below the threshold: no second summary call.
    await new Promise((r) => setTimeout(r, 500));
    expect(await summaryRequests(marker)).toHaveLength(1);
  }, 60_000);
});
