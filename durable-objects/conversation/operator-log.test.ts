// The operator's log line for a finished turn (operator-log.ts): its outcome, steps and usage.
import { afterEach, expect, inject, it, vi } from "vitest";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../tests/support/ws-client";
import { logTurnEnded } from "./operator-log";

afterEach(() => vi.restoreAllMocks());

it("logs a finished turn with its steps and its usage, as its last checkpoint recorded them", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  const conv = await createConversation(user);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  // The metered fixture (tests/support/usage-fixtures.ts): a tool call, then the answer.
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "metered question" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  const ended = lines
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.event === "turn_ended" && l.conversationId === conv.id);
  expect(ended).toEqual([
    expect.objectContaining({
      level: "info",
      status: "complete",
      steps: 2,
      calls: 2,
      inputTokens: 2500,
      outputTokens: 500,
    }),
  ]);
}, 60_000);

it("at LOG_LEVEL=warn logs a failed turn, not a complete one", () => {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  const ids = { conversationId: "c1", turnId: "t1" };
  logTurnEnded({ LOG_LEVEL: "warn" }, { ...ids, status: "complete" });
  logTurnEnded({ LOG_LEVEL: "warn" }, { ...ids, status: "failed", errorCode: "provider_error" });
  expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
    expect.objectContaining({ level: "warn", status: "failed", errorCode: "provider_error" }),
  ]);
});
