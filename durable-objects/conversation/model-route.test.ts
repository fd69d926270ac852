// Routing with fallback, end to end: Ollama is the conversation's model but nothing listens at
// OLLAMA_BASE_URL (a closed port on 127.0.0.1), and the route falls back to Anthropic (aimock).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

async function turn(settings: Record<string, unknown>) {
  const conv = await createConversation(user, {
    provider: "ollama",
    model: "llama3.2:latest",
    settings,
  });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "a routed question" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  return { events: ws.events(), conversationId: conv.id };
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (ok(v) || i > 60) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ofType = <T extends ServerEvent["type"]>(events: ServerEvent[], type: T) =>
  events.filter((e): e is Extract<ServerEvent, { type: T }> => e.type === type);

describe("a step routed with fallback", () => {
  it("is served by the fallback when Ollama is unreachable, and the timeline says so", async () => {
    const { events, conversationId } = await turn({
      route: [{ provider: "anthropic", model: "claude-haiku-4-5" }],
    });

    const [served, ...more] = ofType(events, "step_model");
    expect(more).toEqual([]);
    expect(served).toMatchObject({ step: 1, provider: "anthropic", model: "claude-haiku-4-5" });
    expect(served!.failed).toEqual([
      {
        provider: "ollama",
        model: "llama3.2:latest",
        reason: expect.stringMatching(/connection to Ollama/),
      },
    ]);
    const notices = ofType(events, "notice").map((n) => [n.level, n.message]);
    expect(notices).toContainEqual([
      "warning",
      expect.stringMatching(
        /^Ollama \(llama3\.2:latest\) could not answer: .+ This step falls back to Anthropic \(claude-haiku-4-5\)\.$/,
      ),
    ]);
    // The call is counted as the fallback's, live and in D1, not as Ollama's.
    const usage = ofType(events, "usage_updated");
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.map((u) => u.model)).toEqual(usage.map(() => "claude-haiku-4-5"));
    const rows = await eventually(
      () =>
        env.DB.prepare("SELECT provider, model FROM usage WHERE conversation_id = ?")
          .bind(conversationId)
          .all<{ provider: string; model: string }>()
          .then((r) => r.results),
      (r) => r.length > 0,
    );
    expect(rows).toEqual(rows.map(() => ({ provider: "anthropic", model: "claude-haiku-4-5" })));
    expect(rows.length).toBeGreaterThan(0);
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content).toContainEqual({
      type: "text",
      text: "Answered by the fallback model.",
    });
  });

  it("without a route, the same turn fails with Ollama's connection error", async () => {
    const { events } = await turn({});
    expect(ofType(events, "step_model")).toEqual([]);
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("failed");
  });

  it("skips a fallback this deployment has no key for, and names it", async () => {
    const { events } = await turn({
      route: [
        { provider: "gemini", model: "gemini-2.5-flash" },
        { provider: "anthropic", model: "claude-haiku-4-5" },
      ],
    });
    const [served] = ofType(events, "step_model");
    expect(served?.provider).toBe("anthropic");
    expect(served?.failed.map((f) => [f.provider, f.reason])).toEqual([
      ["ollama", expect.stringMatching(/connection to Ollama/)],
      ["gemini", "this deployment has no key for it."],
    ]);
    expect(ofType(events, "notice").map((n) => n.message)).toContainEqual(
      expect.stringMatching(
        /^Ollama \(llama3\.2:latest\) could not answer: .+ Gemini \(gemini-2\.5-flash\) could not answer: this deployment has no key for it\. This step falls back to Anthropic \(claude-haiku-4-5\)\.$/,
      ),
    );
    expect(fold(events).messages[1]!.status).toBe("complete");
  });

  it("serves a conversation whose own provider has no key from its route", async () => {
    // This deployment has no Gemini key: without a route the turn would fail at once.
    const conv = await createConversation(user, {
      provider: "gemini",
      model: "gemini-2.5-flash",
      settings: { route: [{ provider: "anthropic", model: "claude-haiku-4-5" }] },
    });
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "a routed question" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    const events = ws.events();
    const [served] = ofType(events, "step_model");
    expect(served).toMatchObject({ provider: "anthropic", model: "claude-haiku-4-5" });
    expect(served!.failed).toEqual([
      {
        provider: "gemini",
        model: "gemini-2.5-flash",
        reason: "this deployment has no key for it.",
      },
    ]);
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content).toContainEqual({
      type: "text",
      text: "Answered by the fallback model.",
    });
  });

  it("refuses a route naming an unknown provider", async () => {
    const res = await api(user, "/api/conversations", {
      method: "POST",
      json: { settings: { route: [{ provider: "mistral", model: "large" }] } },
    });
    expect(res.status).toBe(400);
  });
});
