// An Ollama model that refuses native tools ("… does not support tools"), which the app cannot
// know in advance: its first turn is asked again with the tools described in its prompt, the
// user is told once what that means, and its later turns go that way at once, without the
// refused request first. The raw requests (wire-recorder.ts) are the witnesses.
import { beforeAll, expect, inject, it } from "vitest";
import type { ServerEvent } from "../../durable-objects/protocol/wire";
import { createConversation, type TestUser } from "../support/helpers";
import { userWithEverything } from "./switch-user";
import { TestSocket, turnEnded } from "../support/ws-client";
import { NATIVELESS_MODEL } from "./switch-fixtures";
import type { WireRequest } from "./wire-recorder";

let user: TestUser;
beforeAll(async () => {
  user = await userWithEverything();
});

/** The events of one turn, from its user message on. */
async function turn(conversationId: string, text: string): Promise<ServerEvent[]> {
  const ws = await TestSocket.openSynced(user, conversationId);
  const clientMessageId = crypto.randomUUID();
  ws.send({ type: "send", clientMessageId, text });
  const own = () => {
    const events = ws.events();
    const at = events.findIndex(
      (e) => e.type === "user_message" && e.message.clientMessageId === clientMessageId,
    );
    return at < 0 ? [] : events.slice(at);
  };
  await ws.until(() => own().length > 0 && turnEnded(own()), 45_000);
  ws.close();
  return own();
}

async function chatRequestsWith(text: string): Promise<WireRequest[]> {
  const res = await fetch(`${inject("switchMockUrl")}/__wire`);
  return ((await res.json()) as WireRequest[]).filter(
    (r) => r.path === "/api/chat" && JSON.stringify(r.body).includes(text),
  );
}

/** The notices about a refusal (this project's own MCP server is down: its notice is not one). */
const refusals = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "notice" && /refused/.test(e.message) ? [e.message] : []));
const offersTools = (r: WireRequest) => ((r.body as { tools?: unknown[] }).tools?.length ?? 0) > 0;

it("tells the user once, and asks the model's later turns with the tools in its prompt", async () => {
  const conv = await createConversation(user, { provider: "ollama", model: NATIVELESS_MODEL });

  const first = await turn(conv.id, "nativeless one: look it up");
  expect(first.find((e) => e.type === "turn_ended")).toBeDefined();
  expect(refusals(first)).toEqual([
    expect.stringMatching(
      new RegExp(`^${NATIVELESS_MODEL} refused native tool calls .*does not support tools.*`),
    ),
  ]);
  // Refused with native tools, then asked with them in the system prompt.
  const asked = await chatRequestsWith("nativeless one");
  expect(asked.map(offersTools)).toEqual([true, false]);
  expect(JSON.stringify(asked[1]!.body)).toContain("tool_call");

  const second = await turn(conv.id, "nativeless two: and again");
  expect(second.find((e) => e.type === "turn_ended")).toBeDefined();
  expect(refusals(second)).toEqual([]);
  // No refused request first: the turn goes straight to the tools in the prompt.
  const again = await chatRequestsWith("nativeless two");
  expect(again.map(offersTools)).toEqual([false]);
});
