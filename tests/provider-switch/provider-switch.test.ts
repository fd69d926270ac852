// Switching provider mid-conversation keeps the whole history, tool calls and results included:
// for each of the 4 × 3 pairs, turn 1 on the first provider calls a tool (server-everything's
// echo) and turn 2 on the second provider must carry that call and its result in the second
// provider's own wire format, by its rules. The raw request bodies (wire-recorder.ts) and
// aimock's journal are the witnesses.
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { ProviderId } from "../../durable-objects/providers/types";
import type { ServerFrame } from "../../durable-objects/protocol/wire";
import { api, createConversation, type TestUser } from "../support/helpers";
import { userWithEverything } from "./switch-user";
import { fold, TestSocket, turnEnded } from "../support/ws-client";
import { echoed, pairMarker, REUSED_CALL_ID, switchPairs } from "./switch-fixtures";
import { carriedCalls, providerPath } from "./wire-checks";
import type { WireRequest } from "./wire-recorder";

/** A model of each provider; Gemini 3, whose rules on replayed calls are the strictest. */
const MODEL: Record<ProviderId, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-6-luna",
  gemini: "gemini-3.5-flash",
  ollama: "qwen3:8b",
};

let user: TestUser;
beforeAll(async () => {
  user = await userWithEverything();
});

async function send(conversationId: string, text: string) {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((frames) => frames.some((f) => f.type === "synced"));
  const clientMessageId = crypto.randomUUID();
  ws.send({ type: "send", clientMessageId, text });
  const ended = (frames: ServerFrame[]) => {
    const at = frames.findIndex(
      (f) => f.type === "user_message" && f.message.clientMessageId === clientMessageId,
    );
    return at >= 0 && turnEnded(frames.slice(at));
  };
  await ws.until(ended, 45_000);
  ws.close();
  return fold(ws.events()).messages.at(-1);
}

/** The model requests (not the title's) whose latest question contains `text`, oldest first. */
async function recordedWith(text: string): Promise<WireRequest[]> {
  const res = await fetch(`${inject("switchMockUrl")}/__wire`);
  const all = (await res.json()) as WireRequest[];
  return all.filter((r) => {
    const raw = JSON.stringify(r.body);
    return raw.includes(text) && !raw.includes("Name this conversation");
  });
}

interface JournalEntry {
  path: string;
  body: { messages?: Array<{ role: string; content?: unknown }> } | null;
}

async function journalWith(text: string): Promise<JournalEntry[]> {
  const res = await fetch(`${inject("switchJournalUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as JournalEntry[] | { entries: JournalEntry[] };
  const entries = Array.isArray(journal) ? journal : journal.entries;
  return entries.filter((e) => {
    const last = [...(e.body?.messages ?? [])].reverse().find((m) => m.role === "user");
    return JSON.stringify(last?.content ?? "").includes(text);
  });
}

describe("switching provider mid-conversation", () => {
  it.each(switchPairs)(
    "$from → $to: the second provider gets the first's tool call and result in its own format",
    async ({ from, to }) => {
      const marker = pairMarker(from, to);
      const conv = await createConversation(user, { provider: from, model: MODEL[from] });
      const first = await send(conv.id, `${marker} first: look it up`);
      expect(first?.status).toBe("complete");
      expect(first?.content.some((p) => p.type === "tool_call")).toBe(true);

      const switched = await api(user, `/api/conversations/${conv.id}`, {
        method: "PATCH",
        json: { provider: to, model: MODEL[to] },
      });
      expect(switched.status).toBe(200);
      const second = await send(conv.id, `${marker} second: what did the tool find?`);
      expect(second?.status).toBe("complete");
      expect(second?.content).toContainEqual({ type: "text", text: `Answered on ${to}.` });

      // aimock saw turn 1 at the first provider's endpoint and turn 2 at the second's, the
      // second carrying the question, the call, its result, the answer and the new question.
      const [turn1] = await journalWith(`${marker} first`);
      expect(turn1?.path).toMatch(providerPath[from]);
      const [turn2] = await journalWith(`${marker} second`);
      expect(turn2?.path).toMatch(providerPath[to]);
      const roles = turn2!.body!.messages!.filter((m) => m.role !== "system").map((m) => m.role);
      expect(roles).toEqual(["user", "assistant", "tool", "assistant", "user"]);

      // The raw request follows the second provider's rules and holds the call and its result.
      const [request] = (await recordedWith(`${marker} second`)).filter((r) =>
        providerPath[to].test(r.path),
      );
      expect(request).toBeDefined();
      expect(carriedCalls[to](request!.body).map(({ id: _id, ...call }) => call)).toEqual([
        {
          name: "everything__echo",
          arguments: { message: echoed(marker) },
          result: expect.stringContaining(`Echo: ${echoed(marker)}`),
        },
      ]);
      expect(JSON.stringify(request!.body)).toContain(`The tool found the ${marker} finding.`);
    },
  );

  it("keeps two turns' calls apart when the first provider gave both the same id", async () => {
    const conv = await createConversation(user, { provider: "openai", model: MODEL.openai });
    for (const turn of ["one", "two"]) {
      const answer = await send(conv.id, `renumbered ${turn}: look it up`);
      expect(answer?.status).toBe("complete");
    }
    const switched = await api(user, `/api/conversations/${conv.id}`, {
      method: "PATCH",
      json: { provider: "anthropic", model: MODEL.anthropic },
    });
    expect(switched.status).toBe(200);
    expect((await send(conv.id, "renumbered three: and now?"))?.status).toBe("complete");

    const [request] = (await recordedWith("renumbered three")).filter((r) =>
      providerPath.anthropic.test(r.path),
    );
    // Each turn's call keeps its own result, under ids Anthropic accepts (unique ones).
    const calls = carriedCalls.anthropic(request!.body);
    expect(calls.map((c) => [c.arguments, c.result])).toEqual([
      [
        { message: "renumbered finding one" },
        expect.stringContaining("Echo: renumbered finding one"),
      ],
      [
        { message: "renumbered finding two" },
        expect.stringContaining("Echo: renumbered finding two"),
      ],
    ]);
    expect(calls[0]!.id).toBe(REUSED_CALL_ID.replace(/[^a-zA-Z0-9_-]/g, "_"));
  });
});
